"""coulomb.validate: the validation cases of `coulomb validate`, report as a dict."""
import json

import pytest

import coulomb


def test_single_case_report():
    report = coulomb.validate(case="contensou-table")
    assert report["quick"] is True
    assert [c["name"] for c in report["cases"]] == ["contensou-table"]
    case = report["cases"][0]
    assert case["passed"] and report["passed"]
    assert len(case["checks"]) == 4
    for check in case["checks"]:
        assert check["error"] <= check["tolerance"] == 1e-9
        assert check["reason"]


def test_several_cases_and_written_report(tmp_path):
    report = coulomb.validate(case=["billiard", "incline-slide"], quick=True, out=tmp_path)
    assert [c["name"] for c in report["cases"]] == ["billiard", "incline-slide"]
    assert report["passed"], json.dumps(report, indent=1)
    assert (tmp_path / "report.md").read_text().startswith("# coulomb validation report")
    assert json.loads((tmp_path / "report.json").read_text())["passed"] is True


def test_case_names_and_unknown_case():
    names = coulomb.validation_cases()
    assert "billiard" in names and "dzhanibekov" in names
    with pytest.raises(ValueError, match="unknown validation case 'nope'"):
        coulomb.validate(case="nope")
