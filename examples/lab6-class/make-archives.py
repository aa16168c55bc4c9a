#!/usr/bin/env python3
"""Makes the binary samples of the lab 6 class from the sources in archive-src/.

    python3 examples/lab6-class/make-archives.py

writes into examples/lab6-class/submissions/:
  henry.zip     correct kernel under a top folder henry/, zipped "on Windows" (CRLF line endings)
  ivan.tar.gz   wrong kernel (first tile only) under a top folder ivan/
  judy.zip      a zip cut off at half its length: no central directory, cannot be opened
  kim.zip       a correct kernel plus an entry named ../../escaped.cu (zip-slip)
  leo/labs/lab6-tiled-matmul/kernel.cu   an x86-64 ELF object, not source text

The output is the same bytes on every run (fixed times, owners and modes), so re-running it
changes nothing in git unless a source changed.
"""
import gzip
import io
import struct
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "archive-src"
OUT = HERE / "submissions"
KERNEL = "labs/lab6-tiled-matmul/kernel.cu"
WHEN = (2026, 3, 14, 23, 58, 0)  # zip time stamps
WHEN_EPOCH = 1773532680  # the same moment, for tar


def source(student, name=KERNEL):
    return (SRC / student / name).read_bytes()


def folders(path):
    """The folders above a path inside an archive, outermost first: a/, a/b/, ..."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) + "/" for i in range(len(parts))]


def zip_bytes(entries, windows=False):
    """entries: (name, bytes) in order; names ending in / are folders."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=WHEN)
            info.create_system = 0 if windows else 3
            if name.endswith("/"):
                info.external_attr = 0x10 if windows else (0o40755 << 16) | 0x10
                archive.writestr(info, b"")
            else:
                info.external_attr = 0x20 if windows else 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
    return buffer.getvalue()


def henry():
    name = "henry/" + KERNEL
    data = source("henry").replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return zip_bytes([(d, b"") for d in folders(name)] + [(name, data)], windows=True)


def ivan():
    name = "ivan/" + KERNEL
    raw = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
            for path in folders(name) + [name]:
                is_dir = path.endswith("/")
                data = b"" if is_dir else source("ivan")
                info = tarfile.TarInfo(path.rstrip("/"))
                info.type = tarfile.DIRTYPE if is_dir else tarfile.REGTYPE
                info.mode = 0o755 if is_dir else 0o644
                info.size = len(data)
                info.mtime = WHEN_EPOCH
                info.uid = info.gid = 1000
                info.uname = info.gname = "ivan"
                tar.addfile(info, io.BytesIO(data) if data else None)
    return raw.getvalue()


def judy():
    name = "judy/" + KERNEL
    whole = zip_bytes([(d, b"") for d in folders(name)] + [(name, source("judy"))])
    return whole[: len(whole) // 2]  # the upload broke off half-way


def kim():
    name = "kim/" + KERNEL
    entries = [(d, b"") for d in folders(name)] + [(name, source("kim"))]
    entries.append(("../../escaped.cu", source("kim", "escaped.cu")))
    return zip_bytes(entries)


def leo():
    """A small but well-formed ELF64 relocatable object for x86-64: what `nvcc -c kernel.cu -o
    kernel.cu` would leave behind. Sections: null, .text (a ret), .shstrtab."""
    text = b"\xc3"  # ret
    shstrtab = b"\0.text\0.shstrtab\0matmul_tiled\0_Z15MatrixMulKernelPKfS0_Pfi\0"
    text_off = 64
    shstrtab_off = text_off + 16
    shoff = (shstrtab_off + len(shstrtab) + 7) // 8 * 8
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header += struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 2)
    body = header + text + bytes(shstrtab_off - text_off - len(text)) + shstrtab
    body += bytes(shoff - len(body))

    def section(name, kind, flags, offset, size, align):
        return struct.pack("<IIQQQQIIQQ", name, kind, flags, 0, offset, size, 0, 0, align, 0)

    body += section(0, 0, 0, 0, 0, 0)
    body += section(1, 1, 0x6, text_off, len(text), 16)  # .text: PROGBITS, ALLOC|EXECINSTR
    body += section(7, 3, 0, shstrtab_off, len(shstrtab), 1)  # .shstrtab: STRTAB
    return body


def main():
    made = {
        OUT / "henry.zip": henry(),
        OUT / "ivan.tar.gz": ivan(),
        OUT / "judy.zip": judy(),
        OUT / "kim.zip": kim(),
        OUT / "leo" / KERNEL: leo(),
    }
    for path, data in made.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path.relative_to(HERE)}: {len(data)} bytes")

    # What each one is meant to be.
    with zipfile.ZipFile(OUT / "henry.zip") as z:
        assert z.testzip() is None and "henry/" + KERNEL in z.namelist()
    with tarfile.open(OUT / "ivan.tar.gz") as t:
        assert "ivan/" + KERNEL in t.getnames()
    assert not zipfile.is_zipfile(OUT / "judy.zip")
    with zipfile.ZipFile(OUT / "kim.zip") as z:
        assert "../../escaped.cu" in z.namelist() and "kim/" + KERNEL in z.namelist()
    assert b"\0" in made[OUT / "leo" / KERNEL]


if __name__ == "__main__":
    main()
