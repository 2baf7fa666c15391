"""What both golden generators (``make_goldens.py``, ``make_mafia_goldens.py``) do with the
transcripts they make: compare them with the files on disk, or write them there."""

from __future__ import annotations

from pathlib import Path


def on_disk(out: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out.glob("*.yaml"))}


def compare(files: dict[str, str], out: Path, label: str) -> list[str]:
    """Differences between generated ``files`` (name -> text) and ``out``; empty when equal."""
    problems = []
    disk = on_disk(out)
    for name in sorted(set(files) | set(disk)):
        if name not in disk:
            problems.append(f"missing: {label}/{name}")
        elif name not in files:
            problems.append(f"not made by the generator: {label}/{name}")
        elif files[name] != disk[name]:
            problems.append(f"differs: {label}/{name}")
    return problems


def write(files: dict[str, str], out: Path, label: str) -> None:
    """Make ``out`` hold exactly ``files``: remove the others, write what changed."""
    out.mkdir(parents=True, exist_ok=True)
    for name in set(on_disk(out)) - set(files):
        (out / name).unlink()
        print(f"removed {label}/{name}")
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {label}/{name}")
    total = sum(len(t.encode("utf-8")) for t in files.values())
    print(f"{len(files)} goldens, {total // 1024} KiB")
