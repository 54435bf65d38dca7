# mypy: disallow-untyped-calls=False, disallow-untyped-defs=False
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml;
# the device's callbacks get SWIG objects, which have no types to name)
"""What a page paints, in drawing order, for siftui.sources.hidden.detect (sources layer, PyMuPDF).

One run of the page through a small MuPDF device gives both what
``page.get_texttrace()`` gives (the device passes every text call on to
PyMuPDF's own trace device, then numbers the spans by their place in the
whole drawing order, as texttrace does) and what ``page.get_bboxlog()`` gives
for the objects that can lie under or over text (the same kinds, boxes and
places in the order): one interpretation of the page instead of two, and
text and stroked paths only counted, not bounded, in Python. A display list
would be cheaper still but drops objects whose box is empty, such as text
drawn at zero horizontal scale, which the trace must keep.

It also keeps, for each filled path, what decides whether text on it can be
seen without drawing the page (siftui.sources.hidden.plain): its colour, when it is
an opaque axis-aligned rectangle of one plain colour painted with nothing
altering it (no clip, soft mask, blend mode or group opacity in force, not
part of a tiling pattern); and the boxes of stroked paths (a stroked
rectangle's inner part left unpainted too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from siftui.core.findings import Box
from siftui.sources.hidden.looks import intersection
from siftui.sources.interrupts import interrupt_after

RGB = tuple[float, float, float]

PAINTS = frozenset({"fill-path", "fill-image", "fill-imgmask", "fill-shade"})

UNBOUNDED = 1e9
"""A painted box reaching this far (MuPDF logs a clipped shading as +-2**31) is unbounded."""

BAND = 32.0
"""Height (pt) of the horizontal bands painted objects are filed in, so that a
span is compared only with what is painted at its height."""

UNPAINTED = 1 / 255
"""Text drawn with an opacity under this paints nothing (as detect.OPAQUE)."""

ROOM = 5.0
"""Rectangles smaller than this (pt) each way hold no text with room around it:
their colour and holes are not kept."""

Item = tuple[int, str, Box]
"""A painted object: its place in the drawing order, its kind, its box on the page."""


@dataclass
class PaintLog:
    """The painted objects of a page: ``log[i]`` is (kind, box) for the object
    drawn i-th (kinds: fill-path, fill-image, fill-imgmask, fill-shade), or
    None for text and stroked paths (counted; the boxes of stroked paths are
    in ``strokes``; ``holes[i]``, for a stroked rectangle, is the part inside
    it the stroke leaves unpainted). ``plain[i]`` is the colour of the i-th
    object when it is a plain opaque rectangle (see the module's doc).
    ``spans`` is the page's text trace."""

    log: list[tuple[str, Box] | None] = field(default_factory=list)
    plain: dict[int, RGB] = field(default_factory=dict)
    strokes: list[tuple[int, Box]] = field(default_factory=list)
    holes: dict[int, Box] = field(default_factory=dict)
    spans: list[dict[str, Any]] = field(default_factory=list)
    masks: set[int] = field(default_factory=set)
    """The places in the order of text drawn as a soft mask's content: it paints
    nothing itself, its glyphs shape where what is painted through the mask shows."""
    fonts: dict[int, Any] = field(default_factory=dict)
    """The fonts of the spans (kept), by their address (siftui.sources.hidden.glyphs)."""
    span_fonts: list[int] = field(default_factory=list)
    """The address of each span's font, as ``spans`` are ordered (empty when the
    trace's spans could not be matched with the text's)."""
    unpainted: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    """Text that paints nothing (render mode 3, opacity 0), by its place in the
    order: the text object (kept) and its matrix, to draw its glyphs apart
    (siftui.sources.hidden.shapes)."""


def paint_log(page: Any) -> PaintLog:
    """The page's painted objects and its text trace (``spans``: what
    ``page.get_texttrace()`` gives, from the same run of the page), in the
    unrotated page space."""
    from pymupdf import extra, mupdf

    result = PaintLog()
    rotation = page.rotation
    if rotation:
        page.set_rotation(0)  # as get_bboxlog() and get_texttrace() do
    try:
        trace = extra.JM_new_texttrace_device(result.spans)
        device = _device_class()(result, trace.m_internal)
        with interrupt_after():  # a Ctrl-C in the device's callbacks: once MuPDF returns
            mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
            mupdf.fz_close_device(device)
        mupdf.fz_close_device(trace)
    finally:
        if rotation:
            page.set_rotation(rotation)
    # The trace device numbers its text calls only: their places in the order.
    for span in result.spans:
        span["seqno"] = device.texts[span["seqno"]]
    if len(result.span_fonts) != len(result.spans):
        result.span_fonts = []  # not one trace span per text span: fonts unknown
    return result


_DEVICE: Any = None


def _device_class() -> Any:
    """The device class, made once (it subclasses a PyMuPDF class, imported late)."""
    global _DEVICE
    if _DEVICE is None:
        _DEVICE = _make_device_class()
    return _DEVICE


def _box(rect: Any) -> Box:
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def _plain_space(mupdf: Any, colorspace: Any) -> bool:
    """Gray, RGB or CMYK: a colour whose RGB is what the render paints."""
    return bool(
        mupdf.ll_fz_colorspace_is_gray(colorspace)
        or mupdf.ll_fz_colorspace_is_rgb(colorspace)
        or mupdf.ll_fz_colorspace_is_cmyk(colorspace)
    )


def _make_device_class() -> Any:
    from pymupdf import mupdf

    # The raw calls, which take the values the callbacks get as they are.
    _mupdf = mupdf._mupdf

    rgb_space = mupdf.FzColorspace(mupdf.FzColorspace.Fixed_RGB)
    params = mupdf.FzColorParams()

    class Device(mupdf.FzDevice2):  # type: ignore[misc]
        def __init__(self, result: PaintLog, trace: Any) -> None:
            super().__init__()
            self.result = result
            self.log = result.log
            self.trace = trace  # the texttrace device text calls are passed on to
            self.texts: list[int] = []  # the place in the order of each text call
            self.altered = 0  # clips, masks, tiles and non-plain groups in force
            self.masking = 0  # soft masks whose content is being drawn
            self.groups: list[bool] = []  # per open group: whether it alters
            for name in (
                "fill_path",
                "stroke_path",
                "fill_text",
                "stroke_text",
                "ignore_text",
                "fill_shade",
                "fill_image",
                "fill_image_mask",
                "clip_path",
                "clip_stroke_path",
                "clip_text",
                "clip_stroke_text",
                "clip_image_mask",
                "pop_clip",
                "begin_mask",
                "end_mask",
                "begin_group",
                "end_group",
                "begin_tile",
                "end_tile",
            ):
                getattr(self, f"use_virtual_{name}")()

        # The painted objects, bounded as get_bboxlog() bounds them.
        def fill_path(self, ctx, path, even_odd, ctm, colorspace, color, alpha, color_params):
            rect = mupdf.ll_fz_bound_path(path, None, ctm)
            box = (rect.x0, rect.y0, rect.x1, rect.y1)
            if (
                not self.altered
                and alpha >= 1.0
                and box[2] - box[0] >= ROOM
                and box[3] - box[1] >= ROOM
                and colorspace
                and _plain_space(mupdf, colorspace)
                and mupdf.ll_fz_path_is_rect(path, ctm)
            ):
                rgb = mupdf.ll_fz_convert_color(
                    colorspace, color, rgb_space.m_internal, None, params.internal()
                )
                self.result.plain[len(self.log)] = (rgb[0], rgb[1], rgb[2])
            self.log.append(("fill-path", box))

        def fill_shade(self, ctx, shade, ctm, alpha, color_params):
            self.log.append(("fill-shade", _box(mupdf.ll_fz_bound_shade(shade, ctm))))

        def fill_image(self, ctx, image, ctm, alpha, color_params):
            unit = mupdf.FzRect(mupdf.FzRect.Fixed_UNIT)
            self.log.append(("fill-image", _box(mupdf.ll_fz_transform_rect(unit.internal(), ctm))))

        def fill_image_mask(self, ctx, image, ctm, colorspace, color, alpha, color_params):
            box = _box(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))
            self.log.append(("fill-imgmask", box))

        def stroke_path(self, ctx, path, stroke, ctm, colorspace, color, alpha, color_params):
            rect = mupdf.ll_fz_bound_path(path, stroke, ctm)
            box = (rect.x0, rect.y0, rect.x1, rect.y1)
            if (
                box[2] - box[0] >= ROOM
                and box[3] - box[1] >= ROOM
                and mupdf.ll_fz_path_is_rect(path, ctm)
            ):
                # A frame: its ink is a band around the rectangle, as wide
                # inside as the stroke's box reaches outside.
                x0, y0, x1, y1 = _box(mupdf.ll_fz_bound_path(path, None, ctm))
                hole = (2 * x0 - box[0], 2 * y0 - box[1], 2 * x1 - box[2], 2 * y1 - box[3])
                if hole[2] > hole[0] and hole[3] > hole[1]:
                    self.result.holes[len(self.log)] = hole
            self.result.strokes.append((len(self.log), box))
            self.log.append(None)

        # Text goes to the trace device; its place in the order is kept, and
        # the font of each of its spans (the trace makes one span of each).
        def fill_text(self, ctx, text, ctm, colorspace, color, alpha, color_params):
            if self.masking:
                self.result.masks.add(len(self.log))
            if alpha < UNPAINTED:
                self._keep_text(text, ctm)
            self.texts.append(len(self.log))
            self.log.append(None)
            self._note_fonts(text)
            _mupdf.ll_fz_fill_text(self.trace, text, ctm, colorspace, color, alpha, color_params)

        def stroke_text(self, ctx, text, stroke, ctm, colorspace, color, alpha, color_params):
            if self.masking:
                self.result.masks.add(len(self.log))
            if alpha < UNPAINTED:
                self._keep_text(text, ctm)
            self.texts.append(len(self.log))
            self.log.append(None)
            self._note_fonts(text)
            _mupdf.ll_fz_stroke_text(
                self.trace, text, stroke, ctm, colorspace, color, alpha, color_params
            )

        def ignore_text(self, ctx, text, ctm):
            self._keep_text(text, ctm)
            self.texts.append(len(self.log))
            self.log.append(None)
            self._note_fonts(text)
            _mupdf.ll_fz_ignore_text(self.trace, text, ctm)

        def _note_fonts(self, text):
            fonts, span_fonts = self.result.fonts, self.result.span_fonts
            span = text.head
            while span:
                font = span.font
                key = int(font.this)
                if key not in fonts:
                    fonts[key] = mupdf.FzFont(mupdf.ll_fz_keep_font(font))
                span_fonts.append(key)
                span = span.next

        def _keep_text(self, text, ctm):
            matrix = mupdf.FzMatrix(ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f)
            kept = mupdf.FzText(mupdf.ll_fz_keep_text(text))
            self.result.unpainted[len(self.log)] = (kept, matrix)

        # What alters the look of what is painted while it is in force.
        def clip(self, ctx, *rest):
            self.altered += 1

        clip_path = clip
        clip_stroke_path = clip
        clip_text = clip
        clip_stroke_text = clip
        clip_image_mask = clip

        def begin_mask(self, ctx, *rest):
            self.altered += 1  # the mask's own content, then a clip until pop_clip
            self.masking += 1

        def end_mask(self, ctx, *rest):
            # begin_mask's count of what alters stays: the mask is now a clip, popped later
            self.masking = max(0, self.masking - 1)

        def pop_clip(self, ctx):
            self.altered = max(0, self.altered - 1)

        def begin_group(self, ctx, area, colorspace, isolated, knockout, blendmode, alpha):
            alters = bool(knockout) or blendmode != 0 or alpha < 1.0
            self.groups.append(alters)
            self.altered += alters

        def end_group(self, ctx):
            if self.groups and self.groups.pop():
                self.altered = max(0, self.altered - 1)

        def begin_tile(self, ctx, *rest):
            self.altered += 1
            return 0

        def end_tile(self, ctx):
            self.altered = max(0, self.altered - 1)

    return Device


class Bands:
    """Boxes filed by horizontal band, to find those at a span's height quickly."""

    def __init__(self, items: list[Item], bound: Box, height: float = BAND) -> None:
        self.height = height
        self.bands: dict[int, list[Item]] = {}
        self.bottom = bound[3] + height
        self.seen: dict[tuple[int, int], list[Item]] = {}
        for item in items:
            y0, y1 = item[2][1], item[2][3]
            for band in range(int(y0 // height), int(y1 // height) + 1):
                self.bands.setdefault(band, []).append(item)

    def near(self, box: Box) -> list[Item]:
        """The items in the bands the box reaches, each once, in drawing order
        (remembered per band range: the spans of a line share it)."""
        height = self.height
        top, bottom = max(box[1], -height), min(box[3], self.bottom)
        key = (int(top // height), int(bottom // height))
        found = self.seen.get(key)
        if found is None:
            items: dict[int, Item] = {}
            for band in range(key[0], key[1] + 1):
                for item in self.bands.get(band, ()):
                    items[item[0]] = item
            found = self.seen[key] = sorted(items.values())
        return found


def on_page(items: list[Item], bound: Box) -> list[Item]:
    """The items clipped to the page, those outside it left out; a box reaching
    UNBOUNDED (a shading filling its clip path: the box does not say where it is;
    it may be under the text, never certainly over it) is ``fill-unbounded``."""
    kept: list[Item] = []
    for index, kind, raw in items:
        r0, r1, r2, r3 = raw
        if (
            abs(r0) >= UNBOUNDED
            or abs(r1) >= UNBOUNDED
            or abs(r2) >= UNBOUNDED
            or (abs(r3) >= UNBOUNDED)
        ):
            kind = "fill-unbounded"
        x0, y0, x1, y1 = intersection(raw, bound)
        if x1 > x0 and y1 > y0:
            kept.append((index, kind, (x0, y0, x1, y1)))
    return kept


class Paints:
    """A page's painted objects by band: ``fills`` (images, filled paths,
    shadings; ``boxes`` by place in the order), ``strokes`` (stroked paths),
    ``plain`` and ``holes`` (those of PaintLog)."""

    def __init__(self, painted: PaintLog, bound: Box) -> None:
        fills = [
            (index, entry[0], entry[1])
            for index, entry in enumerate(painted.log)
            if entry is not None and entry[0] in PAINTS
        ]
        on = on_page(fills, bound)
        self.fills = Bands(on, bound)
        self.boxes = {index: box for index, _, box in on}
        strokes = [(index, "stroke", box) for index, box in painted.strokes]
        self.strokes = Bands(on_page(strokes, bound), bound)
        self.plain = painted.plain
        self.holes = painted.holes
