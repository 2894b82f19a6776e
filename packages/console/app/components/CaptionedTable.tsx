// A captioned table of rows, each headed by its first cell, that scrolls sideways on
// narrow screens: the shape of every list of facts on the run page.
import type { ComponentChildren } from 'preact';
import { TableScroll } from './TableScroll.js';

/** Props of {@link CaptionedTable}. */
export interface CaptionedTableProps<Row> {
  /** The table's caption, which also names its scrolling region. */
  caption: string;
  /** The column headings; the first heads the column of row headers. */
  columns: readonly string[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The cells of a row, one per column: the first is the row's header. */
  cells: (row: Row) => readonly ComponentChildren[];
}

/** A keyboard-scrollable table with a caption, column headings and row headers. */
export function CaptionedTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  cells,
}: CaptionedTableProps<Row>) {
  return (
    <TableScroll label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const [header, ...rest] = cells(row);
            return (
              <tr key={rowKey(row)}>
                <th scope="row">{header}</th>
                {rest.map((cell, index) => (
                  <td key={index}>{cell}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
