"""``diagtool tree`` output as clang prints it on a terminal: colours and nesting."""
from __future__ import annotations

from analyzer.verify.clang import parse_tree


def test_parse_tree_colours_and_nesting():
    text = ("\x1b[0;32mGREEN\x1b[0m = enabled by default\n\n"
            "\x1b[0;33m-W\n\x1b[0m  \x1b[0;33m-Wextra\n\x1b[0m    \x1b[0;32m-Wa\n"
            "\x1b[0m  \x1b[0;31m-Wb\n\x1b[0m\x1b[0;32m-Wc\n\x1b[0m")
    colours, edges = parse_tree(text)
    assert colours == {"": "yellow", "extra": "yellow", "a": "green", "b": "red", "c": "green"}
    assert edges == {("", "extra"), ("extra", "a"), ("", "b")}
