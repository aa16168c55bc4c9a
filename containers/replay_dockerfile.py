#!/usr/bin/env python3
"""Replays a Dockerfile in a root folder with bubblewrap, as `docker build` and `docker run` would,
where no container engine runs: the one replay of the project's tests in a clean root
(containers/test-cpu-image-in-clean-root.sh, and scripts/packaging/test-in-clean-root.sh for the
PrairieLearn package's Dockerfile).

    replay_dockerfile.py build DOCKERFILE CONTEXT ROOT
    replay_dockerfile.py run DOCKERFILE ROOT [--bind HOST:INSIDE[:ro]]... -- [ARGS...]

build: each instruction in order. COPY SOURCE DEST copies SOURCE of CONTEXT (a file, a folder's
contents, or . for all of it) less what the Dockerfile's .dockerignore (DOCKERFILE.dockerignore,
else CONTEXT/.dockerignore) leaves out; RUN runs its shell
line in ROOT as root with the image's ENV, the host's resolv.conf for apt. FROM is the root given
(the caller unpacks the image's distribution there).
run: ENTRYPOINT with ARGS (or CMD) in ROOT, in its own pid, ipc, uts and network namespaces as a
container's, /sys read-only but the cgroup file systems writable (what the flags of
containers/README.md give), the binds given.
Only the instructions the images use are understood (FROM, ARG with a default, ENV K=V, COPY
SOURCE /DEST, RUN in shell form, ENTRYPOINT and CMD in JSON form), one line each: anything else stops with
the line named, so a Dockerfile cannot grow a step that this replay would skip.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

DOCKER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def fail(message):
    print(f"replay_dockerfile: {message}", file=sys.stderr)
    sys.exit(2)


def parse(dockerfile):
    """[(instruction, argument text, line number)], comments and blank lines left out."""
    steps = []
    for number, line in enumerate(open(dockerfile, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            fail(f"{dockerfile}:{number}: a continued line: keep each instruction on one line")
        word, _, rest = line.partition(" ")
        steps.append((word.upper(), rest.strip(), number))
    return steps


def substitute(text, variables):
    return re.sub(r"\$\{(\w+)\}|\$(\w+)",
                  lambda m: variables.get(m.group(1) or m.group(2), ""), text)


def ignore_patterns(dockerfile, context):
    own = dockerfile + ".dockerignore"
    path = own if os.path.exists(own) else os.path.join(context, ".dockerignore")
    if not os.path.exists(path):
        return []
    patterns = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            negated = line.startswith("!")
            pattern = line[1:] if negated else line
            regex = "".join(".*" if part == "**" else
                            "[^/]*" if part == "*" else
                            "[^/]" if part == "?" else re.escape(part)
                            for part in re.split(r"(\*\*|\*|\?)", pattern.strip("/")))
            patterns.append((re.compile(regex + r"\Z"), negated, pattern.strip("/")))
    return patterns


def excluded(relative, patterns):
    """Docker's rule: the last pattern that matches the path or a folder above it decides."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    result = False
    for regex, negated, _ in patterns:
        if any(regex.match(prefix) for prefix in prefixes):
            result = not negated
    return result


def copy_context(context, source, destination, patterns):
    """Copies CONTEXT/SOURCE (a file, or a folder's contents) to DESTINATION; returns the count."""
    top = os.path.normpath(os.path.join(context, source))
    if os.path.relpath(top, context).startswith(".."):
        fail(f"COPY {source}: outside the build context")
    if os.path.isfile(top):
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copy2(top, destination)
        return 1
    if not os.path.isdir(top):
        fail(f"COPY {source}: no such file or folder in {context}")
    copied = 0
    for folder, folders, files in os.walk(top):
        relative_folder = os.path.relpath(folder, context)
        for name in sorted(files + [f for f in folders if os.path.islink(os.path.join(folder, f))]):
            relative = os.path.normpath(os.path.join(relative_folder, name))
            if excluded(relative, patterns):
                continue
            target = os.path.join(destination, os.path.relpath(os.path.join(folder, name), top))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(os.path.join(folder, name), target, follow_symlinks=False)
            copied += 1
        # Descend into a folder unless it is left out and no '!' pattern could let back in
        # something below it (build folders, .git: never walked).
        kept = []
        for name in folders:
            relative = os.path.normpath(os.path.join(relative_folder, name))
            if os.path.islink(os.path.join(folder, name)):
                continue
            if excluded(relative, patterns) and not any(
                    negated and text.startswith(relative + "/") for _, negated, text in patterns):
                continue
            kept.append(name)
        folders[:] = kept
    return copied


def bwrap_base(root):
    return ["bwrap", "--bind", root, "/", "--proc", "/proc", "--dev", "/dev", "--die-with-parent"]


def environment(variables):
    return ["/usr/bin/env", "-i", f"PATH={DOCKER_PATH}", "HOME=/root"] + \
           [f"{key}={value}" for key, value in variables.items()]


def build(dockerfile, context, root):
    arguments, variables = {}, {}
    for instruction, text, number in parse(dockerfile):
        where = f"{dockerfile}:{number}"
        if instruction == "FROM":
            print(f"replay: FROM {text}: the root {root} stands for it", flush=True)
        elif instruction == "ARG":
            name, _, default = text.partition("=")
            arguments[name] = default.strip('"')
        elif instruction == "ENV":
            name, equals, value = text.partition("=")
            if not equals:
                fail(f"{where}: ENV KEY=VALUE only")
            variables[name] = substitute(value, {**arguments, **variables})
        elif instruction == "COPY":
            source, _, target = text.partition(" ")
            if " " in target or not target.startswith("/") or source.startswith("-"):
                fail(f"{where}: COPY SOURCE /ABSOLUTE only")
            count = copy_context(context, source, root + target,
                                 ignore_patterns(dockerfile, context))
            print(f"replay: COPY {source} {target}: {count} files", flush=True)
        elif instruction == "RUN":
            if text.startswith("["):
                fail(f"{where}: RUN in shell form only")
            start = time.time()
            print(f"replay: RUN {text}", flush=True)
            command = bwrap_base(root) + ["--ro-bind", "/etc/resolv.conf", "/etc/resolv.conf",
                                          "--"] + environment(variables) + ["/bin/sh", "-c", text]
            status = subprocess.call(command)
            print(f"replay: RUN took {time.time() - start:.0f} s, status {status}", flush=True)
            if status != 0:
                sys.exit(status)
        elif instruction in ("ENTRYPOINT", "CMD"):
            json.loads(text)  # JSON form only; used by `run`
        else:
            fail(f"{where}: {instruction} is not replayed: keep the images to the instructions "
                 "this replay knows, or teach it the new one")


def run(dockerfile, root, binds, args):
    variables, entrypoint, command = {}, [], []
    for instruction, text, number in parse(dockerfile):
        if instruction == "ENV":
            name, _, value = text.partition("=")
            variables[name] = value
        elif instruction == "ENTRYPOINT":
            entrypoint = json.loads(text)
        elif instruction == "CMD":
            command = json.loads(text)
    sandbox = bwrap_base(root) + ["--unshare-pid", "--unshare-ipc", "--unshare-uts",
                                  "--unshare-net", "--ro-bind", "/sys", "/sys",
                                  "--bind", "/sys/fs/cgroup", "/sys/fs/cgroup"]
    for bind in binds:
        host, inside, *mode = bind.split(":")
        sandbox += ["--ro-bind" if mode == ["ro"] else "--bind", host, inside]
    return subprocess.call(sandbox + ["--"] + environment(variables) + entrypoint +
                           (args or command))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "build":
        build(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]),
              os.path.abspath(sys.argv[4]))
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "run":
        rest, binds = sys.argv[4:], []
        while rest and rest[0] == "--bind":
            binds.append(rest[1])
            rest = rest[2:]
        if rest and rest[0] == "--":
            rest = rest[1:]
        return run(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), binds, rest)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
