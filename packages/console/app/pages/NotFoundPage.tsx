// A path under the prefix that is no page of the console.
import { href, Link } from '../routing/navigation.js';

/** Props of {@link NotFoundPage}. */
export interface NotFoundPageProps {
  path: string;
}

/** "Page not found" with a way back. */
export function NotFoundPage({ path }: NotFoundPageProps) {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no console page at <code>{path}</code>.{' '}
        <Link href={href({ name: 'runs' })}>Go to the runs</Link>.
      </p>
    </>
  );
}
