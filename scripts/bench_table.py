"""The Markdown tables scripts/bench.py and scripts/bench_remote.py print."""


def print_table(header, rows, left=(0,)):
    """header and rows as a Markdown table, columns padded to their widest cell;
    the columns numbered in `left` are left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [header] + list(rows)) for i in range(len(header))]

    def line(row):
        return "| " + " | ".join(str(v).ljust(w) if i in left else str(v).rjust(w)
                                 for i, (v, w) in enumerate(zip(row, widths))) + " |"

    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line(row))
