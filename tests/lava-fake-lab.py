#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A stand-in for a LAVA lab's REST API, for testing patchbay lava submit.

    tests/lava-fake-lab.py LAB_DIR DEVICE_TYPES_DIR QEMU TOKEN_FILE PORT_FILE

Serves, on 127.0.0.1 (an ephemeral port, written to PORT_FILE), the part of
lava-server 2023.01's /api/v0.2 that a client of a lab uses:
  POST /api/v0.2/jobs/            {"definition": YAML} -> 201 {"job_ids": [N]}
  GET  /api/v0.2/jobs/N/          {"id", "state", "health"}
  GET  /api/v0.2/jobs/N/logs/     the job log as the server stores it
                                  (output.yaml: "- " and one record a line)
Every request needs "Authorization: Token <TOKEN_FILE's first line>"
(401 otherwise, as LavaTokenAuthentication answers). As a lab that installed
an export's device type (LAB_DIR: lab/ of a patchbay lava export) with
patchbay's QEMU at QEMU, and whose admin wrote a device dictionary that
says so (as docs/lava.md tells): the server renders it with the job's
context over the device type and lava-server's own (DEVICE_TYPES_DIR, from
its Debian package), and the local lava-run runs the job on it, as a worker
does. Runs until killed.
"""
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jinja2
import yaml

LAB, DEVICE_TYPES, QEMU, TOKEN_FILE, PORT_FILE = sys.argv[1:6]
WORK = os.path.join(os.path.dirname(os.path.abspath(PORT_FILE)), "fake-lab")
with open(TOKEN_FILE) as f:
    TOKEN = f.readline().strip()
JOBS = {}
LOCK = threading.Lock()


def run_job(job_id, definition):
    """lava-run on the job, its stderr kept as the server's log."""
    job = yaml.safe_load(definition)
    out = os.path.join(WORK, str(job_id))
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "job.yaml")
    with open(path, "w") as f:
        f.write(definition)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([WORK, LAB, DEVICE_TYPES]),
        trim_blocks=True, autoescape=False)
    device = os.path.join(out, "device.yaml")
    with open(device, "w") as f:
        f.write(env.get_template("fake-lab-01.jinja2").render(
            **job.get("context", {})))
    env = dict(os.environ)
    # the worker's PATH has patchbay's QEMU for LAVA's version check
    env["PATH"] = os.path.dirname(QEMU) + ":" + env["PATH"]
    proc = subprocess.run(
        ["lava-run", "--job-id", str(job_id), "--output-dir", out, "--device",
         device, path],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, check=False)
    records = [line for line in proc.stdout.decode("utf-8", "replace").splitlines()
               if line.startswith("{")]
    health = "Complete"
    for line in records:
        if '"definition": "lava"' in line and '"case": "job"' in line \
                and '"result": "fail"' in line:
            health = "Incomplete"
    with LOCK:
        JOBS[job_id].update(state="Finished", health=health,
                            log="".join("- " + r + "\n" for r in records))


class Api(BaseHTTPRequestHandler):
    def reply(self, code, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorised(self):
        if self.headers.get("Authorization") == "Token " + TOKEN:
            return True
        self.reply(401, {"detail": "Invalid token."})
        return False

    def do_POST(self):
        if not self.authorised():
            return
        if self.path != "/api/v0.2/jobs/":
            return self.reply(404, {"detail": "Not found."})
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with LOCK:
            job_id = len(JOBS) + 1
            JOBS[job_id] = {"id": job_id, "state": "Running", "health": "Unknown"}
        threading.Thread(target=run_job, args=(job_id, body["definition"]),
                         daemon=True).start()
        self.reply(201, {"message": "job(s) successfully submitted",
                         "job_ids": [job_id]})

    def do_GET(self):
        if not self.authorised():
            return
        parts = self.path.strip("/").split("/")
        if len(parts) < 4 or parts[:3] != ["api", "v0.2", "jobs"] \
                or not parts[3].isdigit() or int(parts[3]) not in JOBS:
            return self.reply(404, {"detail": "Not found."})
        with LOCK:
            job = dict(JOBS[int(parts[3])])
        if len(parts) == 4:
            return self.reply(200, {k: job[k] for k in ("id", "state", "health")})
        if parts[4:] == ["logs"] and "log" in job:
            return self.reply(200, job["log"].encode(), "application/yaml")
        return self.reply(404, {"detail": "Not found."})

    def log_message(self, fmt, *args):
        sys.stderr.write("fake lab: " + fmt % args + "\n")


os.makedirs(WORK, exist_ok=True)
with open(os.path.join(WORK, "fake-lab-01.jinja2"), "w") as f:
    f.write("{%% extends 'patchbay-qemu.jinja2' %%}\n"
            "{%% set patchbay_qemu = '%s' %%}\n" % QEMU)
server = ThreadingHTTPServer(("127.0.0.1", 0), Api)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
