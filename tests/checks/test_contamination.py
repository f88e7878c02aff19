"""Contamination against references: the n-gram index agrees with a brute-force search, a run
is clean against NesTools and wholly contaminated against itself, and `generate --exclude-from`
drops what a reference holds as counted rejects and stays byte-reproducible across a resume."""

import json
import random

import pytest
from typer.testing import CliRunner

from factory.checks.contamination import GRAM, NgramIndex, tokens
from factory.cli import app
from factory.config import load_settings
from factory.generation.generate import generate
from factory.records import GenerateConfig
from tests.run_helpers import digest, resumed_after

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out


def brute_longest(words, texts):
    best = 0
    for text in texts:
        for i in range(len(words)):
            for j in range(len(text)):
                k = 0
                while i + k < len(words) and j + k < len(text) and words[i + k] == text[j + k]:
                    k += 1
                best = max(best, k)
    return best


def test_the_longest_shared_run_of_words_is_the_one_a_brute_force_search_finds():
    rng = random.Random(7)
    vocabulary = "a b c d e f".split()
    texts = [[rng.choice(vocabulary) for _ in range(rng.randint(0, 30))] for _ in range(12)]
    index = NgramIndex(texts)
    for _ in range(200):
        words = [rng.choice([*vocabulary, "z"]) for _ in range(rng.randint(0, 25))]
        longest, where = index.longest(words)
        assert longest == brute_longest(words, texts)
        if longest:  # the reference named holds that run
            assert brute_longest(words, [texts[where]]) == longest


def test_no_run_crosses_from_one_reference_request_into_the_next():
    index = NgramIndex([["book", "a", "table"], ["for", "two", "tonight"]])
    assert index.longest(tokens("Book a table for two tonight"))[0] == 3
    long = tokens("please find the cheapest flight from Paris to Rome on Friday and book it for me")
    assert GRAM < len(long) and NgramIndex([long]).overlap(long) == 1.0 and NgramIndex([long[1:]]).overlap(long[:-1]) < 1


def run_cli(*args):
    return CliRunner().invoke(app, list(map(str, args)))


def test_a_run_is_clean_against_nestools_and_wholly_contaminated_against_itself(food_run, tmp_path):
    result = run_cli("contamination", food_run.path, "--against", "nestools", "--out", tmp_path / "clean")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "clean" / "contamination.json").read_text())
    assert report["crossed"] == 0 and report["references"][0]["entries"] == 1000
    assert "| `nestools` | 1000 | 0 |" in (tmp_path / "clean" / "contamination.md").read_text()

    result = run_cli("contamination", food_run.path, "--against", food_run.path / "dataset", "--out", tmp_path / "self")
    assert result.exit_code == 1
    report = json.loads((tmp_path / "self" / "contamination.json").read_text())
    assert report["crossed"] == 16 and all(set(m["crossed"]) == {"ngram", "cosine", "same_chain"} or
                                           set(m["crossed"]) == {"cosine", "same_chain"}  # a request under 13 words
                                           for m in report["references"][0]["matches"])


def test_thresholds_from_the_command_line_decide_what_counts(food_run, tmp_path):
    result = run_cli("contamination", food_run.path, "--against", "nestools", "--max-cosine", "0.1", "--out", tmp_path)
    assert result.exit_code == 1
    report = json.loads((tmp_path / "contamination.json").read_text())
    assert report["thresholds"]["max_cosine"] == 0.1 and report["crossed"] > 0




def test_exclude_from_drops_what_a_reference_holds_and_resumes_to_the_same_bytes(food_run, tmp_path):
    # The same settings as the reference: its own first candidate comes first and must go (the
    # later ones differ, as the run's kept instances steer the composer).
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3, exclude_from=[str(food_run.path)])
    fresh = generate(config, load_settings(), tmp_path / "fresh")
    assert fresh.manifest.reject_reasons.get("contamination", 0) > 0
    assert all(any(c.name == "contamination" and c.passed for c in i.checks) for i in fresh.instances)
    rejects = [json.loads(line) for line in (fresh.path / "rejects.jsonl").read_text().splitlines()]
    assert any(r["stage"] == "contamination" and "same chain and values as" in r["reasons"][0] for r in rejects)
    assert not {i.id for i in fresh.instances} & {i.id for i in food_run.instances}
    assert "exclude_from" in (fresh.path / "dataset" / "README.md").read_text()

    result = run_cli("contamination", fresh.path, "--against", food_run.path)
    assert result.exit_code == 0, result.output

    resumed = resumed_after(config, tmp_path / "resumed", 20)
    assert resumed.resumed_from == 20 and digest(resumed.path / "dataset") == digest(fresh.path / "dataset")


def test_an_unknown_reference_is_one_line(food_run):
    result = run_cli("contamination", food_run.path, "--against", "no such thing")
    assert result.exit_code == 1 and "neither 'nestools'" in result.output
