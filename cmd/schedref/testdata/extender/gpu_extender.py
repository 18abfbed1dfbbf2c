#!/usr/bin/env python3
"""A small scheduler extender for the end-to-end test (extender_e2e_test.sh).

Speaks the extender/v1 JSON over HTTP on 127.0.0.1 at an ephemeral port,
written to the file named by the first argument once listening:
  /scheduler/filter      passes nodes labelled gpu=yes, fails the others
                         (unresolvable when labelled gpu=never)
  /scheduler/prioritize  scores each node by its label score (0-10)
Runs until terminated.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        args = json.loads(body)
        nodes = (args.get("Nodes") or {}).get("items") or []
        if self.path == "/scheduler/filter":
            passing, failed, never = [], {}, {}
            for node in nodes:
                meta = node.get("metadata", {})
                gpu = meta.get("labels", {}).get("gpu", "")
                if gpu == "yes":
                    passing.append(node)
                elif gpu == "never":
                    never[meta["name"]] = "gpu never available"
                else:
                    failed[meta["name"]] = "no gpu"
            reply = {"Nodes": {"items": passing}, "FailedNodes": failed,
                     "FailedAndUnresolvableNodes": never, "Error": ""}
        elif self.path == "/scheduler/prioritize":
            reply = [{"Host": n["metadata"]["name"],
                      "Score": int(n["metadata"].get("labels", {}).get("score", "0"))}
                     for n in nodes]
        else:
            self.send_response(404)
            self.end_headers()
            return
        out = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


def main():
    server = HTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
