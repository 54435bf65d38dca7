"""A PDF's form fields read as ``FormWidget`` values, and E18's fills written into a
draft, through MuPDF's objects.

Values are the fields' own (``/V``, inherited from a parent field as PDF says);
a checkbox is on when its value is the widget's real on-state, whatever it is
named. A fill writes the field's ``/V`` once (on every field object of that full
name) and then each widget of it, wherever its page: text and choice fields get
a new appearance stream from MuPDF (so a viewer that does not build appearances
itself, poppler included, shows the value; the file's ``/NeedAppearances`` is
left as it was), checkboxes and radio buttons their ``/AS`` set to the on-state
chosen or ``/Off`` (their own appearances, the file's, are kept).
"""

# mypy: disallow-untyped-calls=False

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from siftui.core.edit.forms import FormWidget
from siftui.core.edit.operations import FieldValue, FillField
from siftui.sources.pdf_open import quiet_pymupdf

pymupdf: Any = quiet_pymupdf()
mupdf: Any = pymupdf.mupdf

__all__ = ["apply_fill", "field_values", "fields_by_name", "page_widgets", "xfa_only"]

_TYPES = {
    "Text": "text",
    "CheckBox": "checkbox",
    "RadioButton": "radio",
    "ComboBox": "combobox",
    "ListBox": "listbox",
}
READ_ONLY = 1
REQUIRED = 1 << 1
EDIT = 1 << 18  # a combobox that takes any text
MULTI_SELECT = 1 << 21


def _name(key: str) -> Any:
    return mupdf.pdf_new_name(key)


def _text(obj: Any) -> str:
    if mupdf.pdf_is_name(obj):
        return str(mupdf.pdf_to_name(obj))
    return str(mupdf.pdf_to_text_string(obj))


def _raw_value(obj: Any) -> Any:
    """The field's /V, from the widget or the nearest parent that has it."""
    return mupdf.pdf_dict_get_inheritable(obj, _name("V"))


def _field_of(obj: Any) -> Any:
    """The field object of a widget: itself when it has a /T, else its /Parent."""
    if mupdf.pdf_dict_get(obj, _name("T")).m_internal:
        return obj
    parent = mupdf.pdf_dict_get(obj, _name("Parent"))
    return parent if parent.m_internal else obj


def _on_state(obj: Any) -> str:
    """A button widget's real on-state (the name of its appearance that is not Off)."""
    found = mupdf.pdf_button_field_on_state(obj)
    name = str(mupdf.pdf_to_name(found)) if found.m_internal else ""
    return name or "Yes"


def _widgets_of(field: Any) -> list[Any]:
    kids = mupdf.pdf_dict_get(field, _name("Kids"))
    if not mupdf.pdf_is_array(kids):
        return [field]
    return [mupdf.pdf_array_get(kids, index) for index in range(mupdf.pdf_array_len(kids))]


def _radio_options(obj: Any) -> tuple[str, ...]:
    states: list[str] = []
    for widget in _widgets_of(_field_of(obj)):
        state = _on_state(widget)
        if state not in states:
            states.append(state)
    return tuple(states)


def _value(obj: Any, kind: str, options: tuple[str, ...] | None) -> FieldValue:
    raw = _raw_value(obj)
    if kind in ("checkbox", "radio"):
        state = _text(raw) if mupdf.pdf_is_name(raw) or mupdf.pdf_is_string(raw) else ""
        if not raw.m_internal:  # no /V: the widget's own /AS tells
            shown = mupdf.pdf_dict_get(obj, _name("AS"))
            state = str(mupdf.pdf_to_name(shown)) if mupdf.pdf_is_name(shown) else ""
        if kind == "checkbox":
            return state == _on_state(obj)
        return state if options is not None and state in options else ""
    if kind == "listbox":
        if mupdf.pdf_is_array(raw):
            chosen = {_text(mupdf.pdf_array_get(raw, i)) for i in range(mupdf.pdf_array_len(raw))}
        else:
            chosen = {_text(raw)} if raw.m_internal else set()
        return tuple(option for option in options or () if option in chosen)
    return _text(raw) if raw.m_internal else ""


def _widget_of(widget: Any, page_rect_matrix: Any) -> FormWidget | None:
    kind = _TYPES.get(str(widget.field_type_string))
    flags = int(widget.field_flags or 0)
    if kind is None or flags & READ_ONLY:
        return None  # signatures, push buttons and read-only fields are not listed
    obj = mupdf.pdf_annot_obj(widget._annot)
    options: tuple[str, ...] | None = None
    labels: tuple[str, ...] | None = None
    if kind == "radio":
        options = _radio_options(obj)
    elif kind in ("combobox", "listbox"):
        pairs = [
            (str(one[0]), str(one[1])) if isinstance(one, list | tuple) else (str(one), str(one))
            for one in widget.choice_values or ()
        ]
        options = tuple(export for export, _ in pairs)
        if any(export != shown for export, shown in pairs):
            labels = tuple(shown for _, shown in pairs)
    max_length = int(widget.text_maxlen or 0) if kind == "text" else 0
    box = widget.rect * page_rect_matrix
    return FormWidget(
        name=str(widget.field_name or ""),
        type=kind,
        options=options,
        option_labels=labels,
        required=bool(flags & REQUIRED),
        max_length=max_length or None,
        value=_value(obj, kind, options),
        editable=kind == "combobox" and bool(flags & EDIT),
        multiple=kind == "listbox" and bool(flags & MULTI_SELECT),
        rect=(float(box.x0), float(box.y0), float(box.x1), float(box.y1)),
    )


def page_widgets(document: Any, page: int) -> list[FormWidget]:
    """Page ``page``'s (1-based) writable widgets in its widget order; each ``rect`` is
    the widget's box on the page as drawn (its rotation applied), in points."""
    shown = document[page - 1]
    found: list[FormWidget] = []
    for widget in shown.widgets() or ():
        made = _widget_of(widget, shown.rotation_matrix)
        if made is not None:
            found.append(made)
    return found


def _acroform(document: Any) -> Any:
    root = mupdf.pdf_dict_get(mupdf.pdf_trailer(pymupdf._as_pdf_document(document)), _name("Root"))
    return mupdf.pdf_dict_get(root, _name("AcroForm"))


def xfa_only(document: Any) -> bool:
    """The form is XFA alone: an /XFA and no AcroForm field."""
    form = _acroform(document)
    if not mupdf.pdf_is_dict(form) or not mupdf.pdf_dict_get(form, _name("XFA")).m_internal:
        return False
    fields = mupdf.pdf_dict_get(form, _name("Fields"))
    return not (mupdf.pdf_is_array(fields) and mupdf.pdf_array_len(fields))


def fields_by_name(document: Any) -> dict[str, list[Any]]:
    """Every terminal field object of the AcroForm's tree, by full name (one walk)."""
    found: dict[str, list[Any]] = {}
    seen: set[int] = set()

    def walk(obj: Any, prefix: str) -> None:
        number = mupdf.pdf_to_num(obj)
        if number in seen:  # a loop of /Kids: each object once
            return
        if number:
            seen.add(number)
        partial = mupdf.pdf_dict_get(obj, _name("T"))
        full = prefix
        if partial.m_internal:
            own = str(mupdf.pdf_to_text_string(partial))
            full = f"{prefix}.{own}" if prefix else own
        kids = mupdf.pdf_dict_get(obj, _name("Kids"))
        named_kids = mupdf.pdf_is_array(kids) and any(
            mupdf.pdf_dict_get(mupdf.pdf_array_get(kids, i), _name("T")).m_internal
            for i in range(mupdf.pdf_array_len(kids))
        )
        if named_kids:
            for index in range(mupdf.pdf_array_len(kids)):
                walk(mupdf.pdf_array_get(kids, index), full)
        else:
            found.setdefault(full, []).append(obj)

    fields = mupdf.pdf_dict_get(_acroform(document), _name("Fields"))
    for index in range(mupdf.pdf_array_len(fields) if mupdf.pdf_is_array(fields) else 0):
        walk(mupdf.pdf_array_get(fields, index), "")
    return found


def _pages_of(document: Any, widgets: set[int]) -> Iterator[int]:
    """The pages (0-based) whose /Annots hold one of the ``widgets`` (object numbers)."""
    pdf = pymupdf._as_pdf_document(document)
    for number in range(document.page_count):
        listed = mupdf.pdf_dict_get(mupdf.pdf_lookup_page_obj(pdf, number), _name("Annots"))
        if mupdf.pdf_is_array(listed) and any(
            mupdf.pdf_to_num(mupdf.pdf_array_get(listed, i)) in widgets
            for i in range(mupdf.pdf_array_len(listed))
        ):
            yield number


def _write(field: Any, fill: FillField) -> None:
    value = fill.value
    if fill.type in ("checkbox", "radio"):
        widgets = _widgets_of(field)
        if fill.type == "checkbox":
            chosen = _on_state(widgets[0]) if value is True else "Off"
        else:
            chosen = str(value) or "Off"
        mupdf.pdf_dict_put(field, _name("V"), _name(chosen))
        for widget in widgets:
            state = chosen if _on_state(widget) == chosen else "Off"
            mupdf.pdf_dict_put(widget, _name("AS"), _name(state))
        return
    options = _options(field)
    if fill.type == "listbox":
        assert isinstance(value, tuple)
        if not value:
            mupdf.pdf_dict_del(field, _name("V"))
            mupdf.pdf_dict_del(field, _name("I"))
            return
        picked = [index for index, (text, _) in enumerate(options) if text in value]
        if len(picked) == 1:
            mupdf.pdf_dict_put(field, _name("V"), mupdf.pdf_deep_copy_obj(options[picked[0]][1]))
        else:
            listed = mupdf.pdf_dict_put_array(field, _name("V"), len(picked))
            for index in picked:
                mupdf.pdf_array_push(listed, mupdf.pdf_deep_copy_obj(options[index][1]))
        indices = mupdf.pdf_dict_put_array(field, _name("I"), len(picked))
        for index in picked:
            mupdf.pdf_array_push_int(indices, index)
        return
    assert isinstance(value, str)
    option = next((index for index, (text, _) in enumerate(options) if text == value), None)
    if option is not None:
        # The option's own string (its encoding too): a viewer that matches /V against
        # /Opt byte for byte, as poppler does, then finds it.
        mupdf.pdf_dict_put(field, _name("V"), mupdf.pdf_deep_copy_obj(options[option][1]))
    else:
        mupdf.pdf_dict_put_text_string(field, _name("V"), value)
    if fill.type == "combobox":
        if option is None:
            mupdf.pdf_dict_del(field, _name("I"))
        else:
            mupdf.pdf_dict_put_array(field, _name("I"), 1)
            mupdf.pdf_array_push_int(mupdf.pdf_dict_get(field, _name("I")), option)


def _options(field: Any) -> list[tuple[str, Any]]:
    """A choice field's export values, each with its string object in /Opt."""
    listed = mupdf.pdf_dict_get_inheritable(field, _name("Opt"))
    found = []
    for index in range(mupdf.pdf_array_len(listed) if mupdf.pdf_is_array(listed) else 0):
        one = mupdf.pdf_array_get(listed, index)
        export = mupdf.pdf_array_get(one, 0) if mupdf.pdf_is_array(one) else one
        found.append((_text(export), export))
    return found


def apply_fill(document: Any, fill: FillField) -> None:
    """``fill`` written into the draft ``document``: the field's value, then the
    appearance of each of its widgets."""
    fields = fields_by_name(document).get(fill.name, [])
    if not fields:
        raise ValueError(f'no field "{fill.name}"')
    for field in fields:
        _write(field, fill)
    if fill.type in ("checkbox", "radio"):
        return  # their /AS shows the state with the file's own appearances
    widgets = {mupdf.pdf_to_num(widget) for field in fields for widget in _widgets_of(field)}
    for number in _pages_of(document, widgets):
        page = document[number]  # held: its widgets live while it does
        for widget in page.widgets() or ():
            if widget.xref in widgets:
                mupdf.pdf_dirty_annot(widget._annot)
                mupdf.pdf_update_annot(widget._annot)


def field_values(document: Any, names: list[str]) -> dict[str, FieldValue]:
    """The values of the fields named ``names`` (those the document has)."""
    found: dict[str, FieldValue] = {}
    named = fields_by_name(document)
    for name in names:
        fields = named.get(name)
        if not fields:
            continue
        field = fields[0]
        widget = _widgets_of(field)[0]
        kind = _kind_of(field)
        if kind is None:
            continue
        options: tuple[str, ...] | None = None
        if kind == "radio":
            options = _radio_options(widget)
        elif kind == "listbox":
            options = tuple(text for text, _ in _options(field))
        found[name] = _value(widget, kind, options)
    return found


def _kind_of(field: Any) -> str | None:
    kind = str(mupdf.pdf_to_name(mupdf.pdf_dict_get_inheritable(field, _name("FT"))))
    flags = mupdf.pdf_to_int(mupdf.pdf_dict_get_inheritable(field, _name("Ff")))
    if kind == "Tx":
        return "text"
    if kind == "Ch":
        return "combobox" if flags & (1 << 17) else "listbox"
    if kind == "Btn":
        if flags & (1 << 16):
            return None
        return "radio" if flags & (1 << 15) else "checkbox"
    return None
