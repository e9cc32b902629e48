# SPDX-License-Identifier: BSD-3-Clause
"""`mpigauge --help`: every command grouped by task with an example that the
command's own parser takes, every line within 80 columns."""
import shlex
import unittest

from helpers import load_frontend

mg = load_frontend()


class Help(unittest.TestCase):
    def test_every_command_once_with_an_example_that_parses(self):
        text = mg.cli.DESCRIPTION
        self.assertTrue(all(len(line) <= 80 for line in text.splitlines()), text)
        parser = mg.cli.build_parser()
        sub = next(a for a in parser._actions if a.dest == "command")
        listed = [line.split()[0] for line in text.splitlines() if line.startswith("  ")
                  and not line.startswith("    ")]
        self.assertEqual(sorted(listed), sorted(sub.choices))
        examples = [line.strip() for line in text.splitlines() if line.startswith("      ")]
        self.assertEqual(sorted({shlex.split(e)[1] for e in examples}), sorted(sub.choices))
        for e in examples:
            a = parser.parse_args(shlex.split(e)[1:])
            self.assertTrue(callable(getattr(a, "func", None)), e)


if __name__ == "__main__":
    unittest.main()
