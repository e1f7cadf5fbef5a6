#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A lab's view of a patchbay lava export (docs/lava.md), without a server.

    tests/lava-lab-test.py EXPORT_DIR DEVICE_TYPES_DIR

For every job in EXPORT_DIR/jobs: the job passes LAVA's strict schema
(lava_common.schemas), and the device a lava-server renders for it, from
EXPORT_DIR/lab/patchbay-qemu-01.jinja2 and the job's context over LAVA's own
device types (DEVICE_TYPES_DIR, lava-server's base.jinja2), has every value of
the device lava-run used (EXPORT_DIR/local/NAME.yaml) but the QEMU path, which
is each worker's own. Renders as lava-server does (jinja2, trim_blocks, the
dictionary's folder first). Prints TAP; exit 1 if anything differs.

Debian's python3 with lava-common and python3-jinja2 (scripts/deps --lava).
"""
import os
import sys

import jinja2
import yaml
from lava_common.schemas import validate


def differences(want, got, path=""):
    """Where got lacks or changes a value of want (dicts compared by key)."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path or '/'}: {got!r} is not a mapping"]
        out = []
        for key, value in want.items():
            if key not in got:
                out.append(f"{path}/{key}: missing")
            else:
                out.extend(differences(value, got[key], f"{path}/{key}"))
        return out
    return [] if want == got else [f"{path}: {got!r}, not {want!r}"]


def main():
    export, device_types = sys.argv[1], sys.argv[2]
    lab = os.path.join(export, "lab")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([lab, device_types]),
        trim_blocks=True,
        autoescape=False,
    )
    jobs = sorted(os.listdir(os.path.join(export, "jobs")))
    failed = 0
    print(f"1..{2 * len(jobs)}")
    n = 0
    for name in jobs:
        with open(os.path.join(export, "jobs", name)) as f:
            job = yaml.safe_load(f)
        n += 1
        try:
            validate(job, strict=True)
            print(f"ok {n} {name}: LAVA's strict job schema")
        except Exception as exc:  # voluptuous' Invalid and friends
            failed += 1
            print(f"not ok {n} {name}: LAVA's strict job schema: {exc}")
        rendered = yaml.safe_load(
            env.get_template("patchbay-qemu-01.jinja2").render(**job["context"])
        )
        with open(os.path.join(export, "local", name)) as f:
            local = yaml.safe_load(f)
        # the worker's own path to patchbay's QEMU
        qemu = rendered["actions"]["boot"]["methods"]["qemu"]["parameters"]
        qemu["command"] = local["actions"]["boot"]["methods"]["qemu"][
            "parameters"]["command"]
        diff = differences(local, rendered)
        n += 1
        if diff:
            failed += 1
            print(f"not ok {n} {name}: the lab's rendered device differs")
            for d in diff[:10]:
                print(f"# {d}")
        else:
            print(f"ok {n} {name}: the lab's rendered device has the local one")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
