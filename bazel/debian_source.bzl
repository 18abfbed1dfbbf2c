"""A Debian source package, fetched with apt and unpacked, as a repository.

debian_source(name, binary_package, build_file) makes @name hold the source
tree of the Debian source package that built `binary_package` (an installed
package), at exactly the installed version, with Debian's patches applied
(`apt-get source` runs dpkg-source -x), and `build_file` as its BUILD file.

Why: Debian's libtbb.so is not built with ThreadSanitizer, so under
--config=tsan TSan cannot see the synchronisation inside it. Building oneTBB
from the same source as the installed library, with the configuration's own
flags, lets TSan check every parallel_for body (bazel/README.md, "tsan").

The rule is lazy: Bazel fetches a repository only when a configured target
needs it, so only --config=tsan builds download anything. The download goes
through apt (the one network service these machines reach), from the machine's
own Debian archive entries turned into deb-src entries, with a private apt
state in the repository directory (the system's apt lists are not touched).
It needs the Debian package dpkg-dev (./bazelw installs it).
"""

_SCRIPT = """
set -eu
state="$PWD/apt-state"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/sources.list.d"
: > "$state/sources.list"
# One-line entries: deb -> deb-src.
if [ -f /etc/apt/sources.list ]; then
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >> "$state/sources.list"
fi
for f in /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] || continue
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$state/sources.list"
done
# deb822 entries: Types: deb -> Types: deb-src.
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed 's/^Types:.*$/Types: deb-src/' "$f" > "$state/sources.list.d/$(basename "$f")"
done
opts="-o Dir::Etc::SourceList=$state/sources.list
      -o Dir::Etc::SourceParts=$state/sources.list.d
      -o Dir::State::Lists=$state/lists
      -o Dir::Cache=$state/cache
      -o Debug::NoLocking=1
      -o APT::Get::Only-Source=1"
# A third-party archive among the entries may have no sources (a deb-src
# entry that 404s fails the update); what matters is whether the package's
# source is found below, which fails with apt's own message if not.
apt-get $opts update -qq || echo "debian_source: apt-get update reported errors (above); trying apt-get source anyway" >&2
mkdir -p unpack
cd unpack
apt-get $opts source -qq "$1=$2"
"""

def _debian_source_impl(rctx):
    pkg = rctx.attr.binary_package
    res = rctx.execute(["dpkg-query", "-W", "-f=${source:Package} ${source:Version}", pkg])
    if res.return_code != 0 or not res.stdout.strip():
        fail("debian_source(%s): the Debian package %s is not installed (./bazelw installs it): %s" %
             (rctx.name, pkg, res.stderr))
    source, version = res.stdout.strip().split(" ")
    if not rctx.which("dpkg-source"):
        fail("debian_source(%s): dpkg-source not found; install the Debian package dpkg-dev (./bazelw does)" %
             rctx.name)

    rctx.file("fetch.sh", _SCRIPT, executable = True)
    res = rctx.execute(
        ["bash", "fetch.sh", source, version],
        timeout = rctx.attr.timeout,
        quiet = True,
    )
    if res.return_code != 0:
        fail("debian_source(%s): apt-get source %s=%s failed (exit %d):\n%s%s" %
             (rctx.name, source, version, res.return_code, res.stdout, res.stderr))

    # apt-get source unpacks into <source>-<upstream version>/; find it.
    res = rctx.execute(["find", "unpack", "-mindepth", "1", "-maxdepth", "1", "-type", "d"])
    dirs = [d for d in res.stdout.strip().split("\n") if d]
    if len(dirs) != 1:
        fail("debian_source(%s): expected one unpacked source directory, found %s" % (rctx.name, dirs))
    res = rctx.execute(["bash", "-c", 'shopt -s dotglob && mv "$1"/* .', "_", dirs[0]])
    if res.return_code != 0:
        fail("debian_source(%s): moving %s into place failed: %s" % (rctx.name, dirs[0], res.stderr))
    rctx.execute(["rm", "-rf", "unpack", "apt-state", "fetch.sh"])

    # The upstream tree may carry Bazel files of its own (oneTBB does); ours win.
    for f in ["BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel"]:
        rctx.delete(f)
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)
    rctx.symlink(rctx.attr.build_file, "BUILD.bazel")
    rctx.file("DEBIAN_SOURCE_VERSION", "%s %s\n" % (source, version))

debian_source = repository_rule(
    implementation = _debian_source_impl,
    attrs = {
        "binary_package": attr.string(
            mandatory = True,
            doc = "An installed Debian binary package; its source package at the installed version is fetched.",
        ),
        "build_file": attr.label(mandatory = True, allow_single_file = True),
        "timeout": attr.int(default = 600, doc = "Seconds for apt-get update + source."),
    },
    doc = "The source of an installed Debian package, fetched with apt-get source (see module docstring).",
)
