"""Boggle settings read from the config: variants (rules), dice sets, best-board search."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from pipeline.boggle.best import SearchParams
from pipeline.boggle.dictionary import MAX_POINT_VALUES
from pipeline.boggle.manifest import SETTINGS
from pipeline.boggle.rules import Dice, Rules, parse_size
from pipeline.core.config import Config
from pipeline.core.errors import WordstatsError, pick
from pipeline.core.sections import Section
from pipeline.core.settings import read


@dataclass(frozen=True)
class BestConfig:
    """The stage's best-board search: seed, runs per search, annealing settings, what to search."""

    seed: int
    runs: int
    params: SearchParams
    free: tuple[str, ...]  # grid sizes searched with free letters
    dice_sets: tuple[str, ...]  # dice sets whose rollable boards are searched


@dataclass(frozen=True)
class BoggleConfig:
    """The [boggle] section: rules per variant, dice sets, and the stage's sample sizes and seeds."""

    variants: dict[str, Rules]
    dice: dict[str, Dice]
    seed: int
    boards: int
    dice_sets: tuple[str, ...]
    percentiles: tuple[float, ...]
    best: BestConfig

    def rules(self, variant: str = "standard", min_length: int | None = None) -> Rules:
        """The rules of a variant, with the shortest word overridden when given."""
        return self.variants[pick(variant, self.variants, "Boggle variant")].with_min_length(min_length)

    def dice_set(self, name: str) -> Dice:
        """The dice set `name`."""
        return self.dice[pick(name, self.dice, "dice set")]


def dice_seed(seed: int, name: str) -> int:
    """The seed of the random boards of one dice set: the stage seed mixed with the set's name."""
    return seed ^ zlib.crc32(name.encode("utf-8"))


def _rules(name: str, sec: Section) -> Rules:
    """The rules of [boggle.variants.NAME], validated."""
    sec.allow("min_length", "points")
    min_length = sec.integer("min_length", 3, lo=1)
    points = sec.sequence("points", of=int)
    if not points or any(p < 0 for p in points):
        sec.fail("points", "expected a non-empty list of points (each >= 0) by word length")
    if len(set(points) - {0}) > MAX_POINT_VALUES:
        sec.fail("points", f"at most {MAX_POINT_VALUES} different point values are supported")
    return Rules(name, min_length, tuple(points))


def _dice(name: str, sec: Section, variants: dict[str, Rules]) -> Dice:
    """The dice set [boggle.dice.NAME], validated against the variants."""
    sec.allow("size", "variant", "dice", "description")
    sec.text("description", "")
    try:
        rows, cols = parse_size(sec.text("size"))
    except WordstatsError as exc:
        sec.fail("size", str(exc))
    variant = sec.text("variant", "standard")
    if variant not in variants:
        sec.fail("variant", f"unknown variant {variant!r} (variants: {', '.join(variants)})")
    faces = sec.sequence("dice", of=str)
    for die in faces:
        if not die or not all("A" <= ch <= "Z" for ch in die):
            sec.fail("dice", f"die {die!r}: faces are upper-case letters A-Z (Q is the Qu face)")
    if len(faces) < rows * cols:
        sec.fail("dice", f"{len(faces)} dice cannot fill a {rows}x{cols} board")
    return Dice(name, rows, cols, variant, tuple(faces))


def boggle_variants(config: Config) -> dict[str, Rules]:
    """The rules of each variant of [boggle.variants] (reading nothing else of [boggle])."""
    sec = config.section("boggle")
    variants = {name: _rules(name, s) for name, s in sec.sections("variants").items()}
    if "standard" not in variants:
        variants = {"standard": Rules("standard", 3, (0, 0, 0, 1, 1, 2, 3, 5, 11)), **variants}
    return variants


def boggle_config(config: Config) -> BoggleConfig:
    """The validated [boggle] section of a config."""
    sec = config.section("boggle")
    top = read(sec, SETTINGS)
    variants = boggle_variants(config)
    dice = {name: _dice(name, s, variants) for name, s in sec.sections("dice").items()}
    dice_sets = tuple(dice) if top["dice_sets"] is None else top["dice_sets"]
    for name in dice_sets:
        if name not in dice:
            sec.fail("dice_sets", f"unknown dice set {name!r} (dice sets: {', '.join(dice) or 'none'})")
    best_sec = sec.section("best", {})
    b = read(best_sec, SETTINGS)
    if b["t_end"] > b["t_start"]:
        best_sec.fail("t_end", f"must be at most t_start ({b['t_start']:g}), got {b['t_end']:g}")
    best = BestConfig(
        seed=b["seed"],
        runs=b["runs"],
        params=SearchParams(b["steps"], b["t_start"], b["t_end"]),
        free=b["free"],
        dice_sets=dice_sets if b["dice_sets"] is None else b["dice_sets"],
    )
    for size in best.free:
        try:
            parse_size(size)
        except WordstatsError as exc:
            best_sec.fail("free", str(exc))
    for name in best.dice_sets:
        if name not in dice:
            best_sec.fail("dice_sets", f"unknown dice set {name!r}")
    return BoggleConfig(
        variants, dice, top["seed"], top["boards"], dice_sets, tuple(float(p) for p in top["percentiles"]), best
    )
