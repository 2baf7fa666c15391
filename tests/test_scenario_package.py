"""The games' data is read from the ``scenarios`` package: from its folder when it is one
folder on disk, else through ``importlib.resources``; both read the same files alike."""

from __future__ import annotations

from importlib import resources

import pytest

from arbiter.engine import scenario


def _resource_files(ref, prefix: str = "") -> list[str]:
    out: list[str] = []
    for child in sorted(ref.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            out += _resource_files(child, f"{prefix}{child.name}/")
        elif child.name.endswith((".yaml", ".yml")):
            out.append(f"{prefix}{child.name}")
    return out


def test_the_packaged_files_and_texts_are_what_importlib_resources_reads() -> None:
    ref = resources.files(scenario.SCENARIO_PACKAGE)
    files = scenario.packaged_files()
    assert files == _resource_files(ref) and len(files) >= 10
    for name in files:
        assert scenario.packaged_text(name) == ref.joinpath(name).read_text(encoding="utf-8")


def test_a_package_that_is_not_one_folder_is_read_through_importlib_resources(monkeypatch) -> None:
    asked: list[str] = []
    files = resources.files
    monkeypatch.setattr(resources, "files", lambda package: asked.append(package) or files(package))
    monkeypatch.setattr(scenario, "_package_locations", lambda: ["/no/such/folder"])
    scenario._package_root.cache_clear()
    try:
        assert scenario.packaged_text("mafia/cards.yaml") == files(scenario.SCENARIO_PACKAGE).joinpath(
            "mafia/cards.yaml").read_text(encoding="utf-8")
        assert asked == [scenario.SCENARIO_PACKAGE]
    finally:
        scenario._package_root.cache_clear()


def test_a_missing_packaged_file_is_a_scenario_error() -> None:
    with pytest.raises(scenario.ScenarioError, match="scenarios/mafia/nothing.yaml: cannot read"):
        scenario.packaged_text("mafia/nothing.yaml")
