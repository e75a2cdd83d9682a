"""The fonts of printed sheets: where each lives, its letter metrics, and its glyphs for a self-contained page."""

from __future__ import annotations

import base64
import functools
import importlib.util
import io
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.config import PROJECT_ROOT
from pipeline.core.errors import WordstatsError

FONT_DIR = PROJECT_ROOT / "data" / "raw" / "fonts"
ASCENDERS = "bdhkl"  # letters that reach the top line (f and t are drawn taller and shorter)
DESCENDERS = "gjpqy"  # letters that hang below the baseline
SYMBOLS = "→↓↘↗←↑↖↙☐"  # drawn from DejaVu Sans whatever the font (arrows of a word search, the bank's boxes)


@dataclass(frozen=True)
class Font:
    """A font family of the sheets: its name on the command line, what it is, and its regular and bold files."""

    name: str
    description: str
    regular: Path
    bold: Path


def _dejavu(file: str) -> Path:
    """A DejaVu font file that matplotlib ships."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise WordstatsError("sheets need the DejaVu fonts of the matplotlib package, which is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "mpl-data" / "fonts" / "ttf" / file


def fonts() -> dict[str, Font]:
    """The fonts a sheet may use (--font)."""
    return {
        "dejavu": Font("dejavu", "DejaVu Sans", _dejavu("DejaVuSans.ttf"), _dejavu("DejaVuSans-Bold.ttf")),
        "atkinson": Font(
            "atkinson",
            "Atkinson Hyperlegible (Braille Institute): letters told apart for low vision and dyslexia",
            FONT_DIR / "atkinson-hyperlegible-latin-400-normal.woff",
            FONT_DIR / "atkinson-hyperlegible-latin-700-normal.woff",
        ),
        "andika": Font(
            "andika",
            "Andika (SIL): letters shaped for early readers, single-storey a and g (handwriting's default)",
            FONT_DIR / "Andika-Regular.woff",
            FONT_DIR / "Andika-Bold.woff",
        ),
    }


def font(name: str) -> Font:
    """The font called `name`, or a one-line error naming the choices."""
    known = fonts()
    if name not in known:
        raise WordstatsError(f"--font {name!r}: choose {', '.join(known)}")
    chosen = known[name]
    for path in (chosen.regular, chosen.bold):
        if not path.is_file():
            raise WordstatsError(f"{path}: font file of --font {name} not found")
    return chosen


@dataclass(frozen=True)
class Metrics:
    """Where a font's letters reach, in em: the top of ascenders (b, d, h, k, l), of lower-case letters (x),
    and the bottom of descenders (g, p, y), below the baseline."""

    ascender: float
    x_height: float
    descender: float


@functools.cache
def metrics(path: Path) -> Metrics:
    """The letter metrics of a font file, measured from its glyphs' outlines."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    face = TTFont(str(path))
    glyphs, cmap, em = face.getGlyphSet(), face.getBestCmap(), face["head"].unitsPerEm

    def bounds(ch: str) -> tuple[float, float, float, float]:
        """The outline box of a letter, in font units."""
        pen = BoundsPen(glyphs)
        glyphs[cmap[ord(ch)]].draw(pen)
        assert pen.bounds is not None
        return pen.bounds

    top = max(bounds(ch)[3] for ch in ASCENDERS)
    return Metrics(top / em, bounds("x")[3] / em, -min(bounds(ch)[1] for ch in DESCENDERS) / em)


@functools.cache
def characters(path: Path) -> frozenset[str]:
    """Every character a font file draws."""
    from fontTools.ttLib import TTFont

    return frozenset(chr(c) for c in TTFont(str(path))["cmap"].getBestCmap())


def check_printable(chosen: Font, text: str, what: str) -> None:
    """A one-line error when the font lacks a character of `text` (a title in a script it does not draw)."""
    missing = sorted({ch for ch in text if not ch.isspace() and ch not in characters(chosen.regular)} - set(SYMBOLS))
    if missing:
        shown = "".join(missing[:8])
        raise WordstatsError(f"{what}: the font {chosen.description.split(':')[0]} has no letters for {shown!r}")


def subset_css(family: str, path: Path, text: str, weight: int = 400) -> str:
    """An @font-face rule holding the glyphs of `text` from a font file, as a data URL (pages stay offline)."""
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # it reports the tables it drops
    face = TTFont(str(path), recalcTimestamp=False)  # the same page for the same request, byte for byte
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(set(text) | {" "})))
    sub.subset(face)
    out = io.BytesIO()
    face.flavor = "woff"
    face.save(out)
    data = base64.b64encode(out.getvalue()).decode("ascii")
    return (
        f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
        f'src: url(data:font/woff;base64,{data}) format("woff"); }}'
    )
