#!/usr/bin/python3
"""scripts/pypi_releases.py `list`: one line per release, fields parted by tabs, so that a reason
keeps its words as they are ("no wheel for cp311 on linux-x86_64", not "linux-x86 64"), and a
release whose wheels need a newer Python (jax 0.11 and later: 3.12) is named not installable."""

import contextlib
import io
import os
import sys
import sysconfig
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import pypi_releases  # noqa: E402

WHEEL_ELSEWHERE = {"filename": "pkg-1.0-cp27-cp27m-win32.whl", "upload_time_iso_8601": "2020-01-02T00:00:00"}
PURE = {"filename": "pkg-2.0-py3-none-any.whl", "upload_time_iso_8601": "2021-03-04T00:00:00"}


class ListTest(unittest.TestCase):
    def run_list(self, releases):
        pypi_releases.fetch = lambda url: {"releases": releases}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(pypi_releases.main(["list", "pkg"]), 0)
        return out.getvalue().splitlines()

    def test_fields_are_parted_by_tabs_and_reasons_keep_their_words(self):
        lines = self.run_list({"1.0": [WHEEL_ELSEWHERE], "2.0": [PURE]})
        self.assertEqual(lines[1], "2.0\t2021-03-04\tyes")
        version, date, reason = lines[0].split("\t")
        self.assertEqual((version, date), ("1.0", "2020-01-02"))
        self.assertIn(sysconfig.get_platform(), reason)  # linux-x86_64 whole
        self.assertNotIn("_", reason.replace(sysconfig.get_platform(), ""))

    def test_a_wheel_for_a_newer_python_says_so(self):
        here = f"{sys.version_info.major}.{sys.version_info.minor}"
        later = f"{sys.version_info.major}.{sys.version_info.minor + 1}"
        newer = dict(PURE, requires_python=f">={later}")
        lines = self.run_list({"2.0": [newer], "2.1": [dict(PURE, requires_python=f">={here}")]})
        self.assertEqual(lines[0], f"2.0\t2021-03-04\tneeds Python >={later} (this is {here})")
        self.assertEqual(lines[1], "2.1\t2021-03-04\tyes")

    def test_requires_python_clauses(self):
        major, minor = sys.version_info[:2]
        here, later = f"{major}.{minor}", f"{major}.{minor + 1}"
        for spec, ok in [(None, True), ("", True), (f">={here}", True), (f">{here}", True),
                         (f"<{here}", False), (f">={later}", False), (f"!={here}.*", False),
                         (f"=={here}.*", True), (f"~={here}", True), (f"~={later}", False),
                         (f">=3.0, <{later}", True), (f">=3.0,<{here}", False), ("===odd", True)]:
            self.assertEqual(pypi_releases.python_ok(spec), ok, spec)


if __name__ == "__main__":
    unittest.main()
