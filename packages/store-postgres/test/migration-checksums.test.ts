// The SQL of a shipped migration never changes: a database that applied it records its
// checksum, and `migrate` refuses a history whose checksum differs. Migrations share pieces
// (migration 12 reuses migration 11's claim), so an edit to a shared piece must not alter a
// shipped migration's text; these are the checksums databases recorded.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/index.js';

const SHIPPED: Readonly<Record<number, string>> = {
  1: 'e654a16bcea775ac03b4384b664cef338898b04a5e0aa3b966bbae3e412dc886',
  2: '1c85ab37b7e99a884657c704cac117d15fc5ee7a17fd566b53af1b144c1f2dee',
  3: 'b1b5410df46dbe6d60a95db992754bebb592931618b02ff8f7e5fe1431b61c87',
  4: '4da8c5ec004d39b529864ac6cc0445a879da30796a386d153b29d30eccc046ff',
  5: 'ab2370ae9cfb1d43959bcc604726e22434b04d4ab0ad47408e523e635d5b7f2d',
  6: 'bcf07193c6b20bc0d0a2d26b7a44e4c4c809c8fffd6888588ec0af2cf9bcd689',
  7: '74ff1626b40aea456472f74ee9ad501c2622847eded38cacc67ca433d29868d6',
  8: 'cefa8a80ff91e0cc8dd23b863d5c0ab004b1e317fb17ee04403dcd544d2bf965',
  9: '79a8afa1647a99e18555f0d40cd05b26fd21c50efa5dfd8c34188e248440976c',
  10: '0e5eac9600f532fa14b003606013dd72a252d0f3573bcd40102d1a94baa6de5a',
  11: '54b65b26223ae4f99dbf85bf9b93049856e3f7b271c3e352f0cf6429423b6f73',
  12: 'cf920a6d7348deb8015f06ab6c2f00eece9201b110e1dd778e1049567bf9cf31',
  13: 'aec8dd044666b0e277b0605a97b95aae61ae6724e858fc068c5233b30e2039b3',
};

describe('shipped migrations', () => {
  it('keep the SQL databases recorded (the checksum migrate compares)', () => {
    const checksums = Object.fromEntries(
      MIGRATIONS.map((migration) => [
        migration.version,
        createHash('sha256').update(migration.sql('"$schema"')).digest('hex'),
      ]),
    );
    expect(checksums).toEqual(SHIPPED);
  });
});
