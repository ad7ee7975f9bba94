#!/usr/bin/python3
"""`backend use FAMILY --python PATH`: a family runs in an environment Retort did not make.

The test makes the environments itself: a venv on Debian's Python that sees its torch
(--system-site-packages), for the torch family; and, where Retort's inductor environment is
installed, a bare venv whose site-packages point at that environment's (a .pth file), for
Inductor. Each runs a comparison against the reference and a short campaign that records the
environment with the versions; a campaign started with `fuzz --python` keeps its environment
across --resume and --jobs. Device modes are unavailable on a machine without a GPU."""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

RETORT = None
ENVS = os.environ.get("RETORT_ENVS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "retort", "envs")
HERE = os.path.dirname(os.path.abspath(__file__))
LOCKS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "backends", "locks")


def retort(script, cwd):
    path = os.path.join(cwd, "commands.rts")
    with open(path, "w") as f:
        f.write(script)
    proc = subprocess.run([RETORT, "--script", path], cwd=cwd, text=True, capture_output=True,
                          timeout=1800)
    return proc.returncode, proc.stdout + proc.stderr


def locked_version(family, package):
    with open(os.path.join(LOCKS, f"{family}.txt")) as lock:
        for line in lock:
            if line.lower().startswith(package + "=="):
                return line.split("==")[1].split()[0]
    return None


class BackendUseTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def check_family(self, family, backend, python):
        db = os.path.join(self.dir.name, f"{family}.db")
        code, out = retort(f"""
backend use {family} --python {python}
backend list
gen --seed 3 --nodes 3 --dtypes f32
compare --backends ref,{backend}
fuzz --backends ref,{backend} --cases 2 --nodes 3 --dtypes f32 --db {db} --quiet
""", self.dir.name)
        self.assertEqual(code, 0, out)
        self.assertIn(f"now run in {python} (", out)
        self.assertIn(f"  environment: {python} (", out)
        self.assertNotIn("mismatch", out)
        with sqlite3.connect(db) as conn:
            (backends,) = conn.execute("SELECT backends FROM campaigns").fetchone()
        recorded = json.loads(backends)[backend]
        self.assertIn(f" in {python} (", recorded)
        return out

    def test_torch_in_a_venv_of_debians_python(self):
        env = os.path.join(self.dir.name, "debian-env")
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", env],
                       check=True)
        out = self.check_family("torch", "torch:script", os.path.join(env, "bin", "python"))
        import torch

        self.assertIn(f"torch {torch.__version__}", out)

    def test_a_bundle_pins_what_the_environment_has(self):
        """A venv whose torch reports 1.99.0 (metadata of its own before Debian's): a bundle of a
        60-node graph pins torch==1.99.0, not the lock's release, and its program runs whole."""
        env = os.path.join(self.dir.name, "debian-env")
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", env],
                       check=True)
        python = os.path.join(env, "bin", "python")
        site = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                              check=True, capture_output=True, text=True).stdout.strip()
        os.makedirs(os.path.join(site, "torch-1.99.0.dist-info"))
        with open(os.path.join(site, "torch-1.99.0.dist-info", "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: torch\nVersion: 1.99.0\n")
        code, out = retort(f"""
backend use torch --python {python}
gen --nodes 60 --dtypes f32 --seed 7
tolerance f32 0 0
compare --backends ref,torch:script --count-precision
export repro bundle
""", self.dir.name)
        self.assertEqual(code, 0, out)
        bundle = os.path.join(self.dir.name, "bundle")
        with open(os.path.join(bundle, "requirements.txt")) as f:
            self.assertEqual(f.read().splitlines()[0], "torch==1.99.0")
        run = subprocess.run([python, "repro.py"], cwd=bundle, capture_output=True, text=True,
                             timeout=600)
        self.assertIn(run.returncode, (0, 1), run.stdout + run.stderr)

    def test_inductor_in_a_second_environment(self):
        version = locked_version("inductor", "torch")
        installed = os.path.join(ENVS, f"inductor@{version}")
        if not os.path.exists(os.path.join(installed, ".retort-complete")):
            self.skipTest(f"inductor@{version} is not installed ({installed})")
        env = os.path.join(self.dir.name, "second-env")
        base = os.path.join(installed, "bin", "python")
        subprocess.run([base, "-m", "venv", "--without-pip", env], check=True)
        site = subprocess.run([base, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
        mine = subprocess.run([os.path.join(env, "bin", "python"), "-c",
                               "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
        with open(os.path.join(mine, "retort_inductor_env.pth"), "w") as pth:
            pth.write(site + "\n")
        out = self.check_family("inductor", "inductor", os.path.join(env, "bin", "python"))
        self.assertIn(f"torch {version}", out)

    def test_a_campaign_keeps_the_environment_it_names(self):
        """`fuzz --python` stores the environment with the campaign; a resume in another process
        shows it and runs it only when named again; the jobs of --jobs are given it."""
        env = os.path.join(self.dir.name, "campaign-env")
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", env],
                       check=True)
        python = os.path.join(env, "bin", "python")
        db = os.path.join(self.dir.name, "campaign.db")
        # Beside torch, a worker that gets add wrong, so that the campaign has a finding.
        bad = os.path.join(os.path.dirname(RETORT), "retort_fault_worker")
        attach = f"backend attach bad --cmd '{bad} --fault perturb --perturb-op add'\n"
        code, out = retort(attach + f"fuzz --backends ref,bad,torch:script --python {python} "
                           f"--cases 2 --nodes 3 --ops add,mul --dtypes f32 --db {db} --quiet "
                           f"--no-opinion --no-reduce\n", self.dir.name)
        self.assertEqual(code, 0, out)
        self.assertIn(f"inductor, torch now run in {python} (torch ", out)
        with sqlite3.connect(db) as conn:
            options, backends = conn.execute("SELECT options, backends FROM campaigns").fetchone()
        stored = json.loads(options)["python"]
        self.assertEqual(list(stored), ["inductor"])
        self.assertEqual(stored["inductor"]["python"], python)
        self.assertIn("torch ", stored["inductor"]["versions"])
        self.assertIn(f" in {python} (", json.loads(backends)["torch:script"])

        # Another process, not told: the interpreter is shown, not run (moved away, running it
        # would fail otherwise).
        os.rename(env, env + "-away")
        code, out = retort(attach + f"fuzz --resume --db {db} --cases 4 --quiet\n",
                           self.dir.name)
        self.assertNotEqual(code, 0, out)
        self.assertIn(f"ran inductor in {python} (torch ", out)
        self.assertIn(f"`fuzz --resume --python inductor={python}`", out)
        os.rename(env + "-away", env)

        # Named again: the campaign goes on there, in two jobs.
        code, out = retort(attach + f"fuzz --resume --db {db} --python {python} --cases 6 "
                           f"--jobs 2 --quiet --no-opinion --no-reduce\n", self.dir.name)
        self.assertEqual(code, 0, out)
        with sqlite3.connect(db) as conn:
            (cases,) = conn.execute("SELECT count(*) FROM cases WHERE error = ''").fetchone()
        self.assertEqual(cases, 6)

        # Merged into another database, its finding still says where the campaign ran torch.
        merged = os.path.join(self.dir.name, "merged.db")
        code, out = retort(f"findings merge {db} --db {merged}\nfindings show 1 --db {merged}\n",
                           self.dir.name)
        self.assertEqual(code, 0, out)
        self.assertIn(f"  environment inductor ran in {python} (torch ", out)

        # A campaign with no Python family has nothing to run there.
        code, out = retort(f"fuzz --backends ref --python {python} --cases 1 "
                           f"--db {self.dir.name}/ref.db --quiet\n", self.dir.name)
        self.assertNotEqual(code, 0, out)
        self.assertIn("--python: none of the backends (ref) runs", out)

    def test_a_python_without_the_family_is_refused(self):
        env = os.path.join(self.dir.name, "bare")
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", env], check=True)
        code, out = retort(f"backend use xla --python {env}/bin/python\n", self.dir.name)
        self.assertNotEqual(code, 0)
        self.assertIn("has no jax", out)

    def test_device_modes_are_unavailable_without_a_gpu(self):
        if os.path.exists("/dev/nvidiactl"):
            self.skipTest("this machine has an NVIDIA GPU: the device modes run "
                          "(tests/backends/CMakeLists.txt, backends.*_cuda_worker)")
        code, out = retort("backend list\n", self.dir.name)
        self.assertEqual(code, 0, out)
        for mode in ("inductor:cuda", "torch:cuda", "xla:gpu", "tvm:cuda"):
            line = next(line for line in out.splitlines() if line.startswith(mode + " "))
            self.assertIn("unavailable", line)
        self.assertIn("  unavailable: no NVIDIA GPU here: /dev/nvidiactl is absent", out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--retort", required=True)
    args, rest = parser.parse_known_args()
    RETORT = os.path.abspath(args.retort)
    unittest.main(argv=[sys.argv[0]] + rest)
