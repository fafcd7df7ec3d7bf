"""One bot's browser: its own cookie jar (the Django session binds a browser to one participant), CSRF
handling like a browser form post, and the forms of a page read with html.parser.

Only the standard library is used, so the bots exercise exactly the HTTP a person's browser sends.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import CookieJar

CSRF_COOKIE = "csrftoken"
CSRF_FIELD = "csrfmiddlewaretoken"
USER_AGENT = "study-bot/1 (run_study_bots)"


class BotError(Exception):
    """Something a participant could not get past; the message says where and why."""


@dataclass
class Field:
    name: str
    value: str
    type: str = "text"
    checked: bool = False
    attrs: dict[str, str] = field(default_factory=dict)  # the element's attributes (e.g. a number's min and max)


@dataclass
class Button:
    name: str
    value: str
    label: str


@dataclass
class Form:
    action: str
    method: str
    fields: list[Field] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)

    def radio_groups(self) -> dict[str, list[str]]:
        """Each radio group's name and its values, in page order (a Likert item is one group)."""
        groups: dict[str, list[str]] = {}
        for f in self.fields:
            if f.type == "radio":
                groups.setdefault(f.name, []).append(f.value)
        return groups

    def button(self, label: str) -> Button | None:
        """The submit button whose label (or value) is ``label``, else whose label starts with it; case and
        spacing ignored."""
        wanted = _norm(label)
        exact = next((b for b in self.buttons if wanted in (_norm(b.label), _norm(b.value))), None)
        # Pages word their buttons freely ("I agree, start the study"): the label's start is enough.
        return exact or next((b for b in self.buttons if _norm(b.label).startswith(wanted)), None)

    def data(self, button: Button | None = None, choices: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """What a browser submits: named hidden/text fields, checked boxes, the chosen radios and the button.

        ``choices`` overrides or adds values (a radio group's chosen value, a text answer).
        """
        choices = dict(choices or {})
        pairs: list[tuple[str, str]] = []
        for f in self.fields:
            if not f.name:
                continue
            if f.type in ("radio", "checkbox"):
                if f.name in choices:
                    continue  # the caller picks for this group below
                if f.checked:
                    pairs.append((f.name, f.value or "on"))
            elif f.type in ("submit", "button", "reset", "image", "file"):
                continue
            elif f.name in choices:
                pairs.append((f.name, choices.pop(f.name)))
            else:
                pairs.append((f.name, f.value))
        pairs.extend(choices.items())
        if button is not None and button.name:
            pairs.append((button.name, button.value))
        return pairs


@dataclass
class Page:
    url: str
    status: int
    headers: dict[str, str]
    html: str
    forms: list[Form] = field(default_factory=list)
    attributes: dict[str, list[str]] = field(default_factory=dict)
    text: str = ""
    code_text: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return urllib.parse.urlsplit(self.url).path

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def form_posting_to(self, suffix: str) -> Form | None:
        """The first POST form whose action ends with ``suffix`` (an empty action posts to the page itself)."""
        for form in self.forms:
            action = urllib.parse.urlsplit(urllib.parse.urljoin(self.url, form.action)).path
            if form.method == "post" and action.endswith(suffix):
                return form
        return None

    def post_forms(self) -> list[Form]:
        return [f for f in self.forms if f.method == "post"]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


# Attributes worth keeping from any element: the match page's websocket path and htmx polling targets.
KEPT_ATTRIBUTES = ("ws-connect", "hx-get", "hx-post", "data-completion-code")
_SKIP_TEXT = ("script", "style", "template")


class _PageParser(HTMLParser):
    """Forms (fields, submit buttons), a few attributes, the visible text and the text of <code> elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.attributes: dict[str, list[str]] = {}
        self.text: list[str] = []
        self.code_text: list[str] = []
        self._form: Form | None = None
        self._button: dict | None = None
        self._select: dict | None = None
        self._textarea: dict | None = None
        self._skip = 0
        self._code: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        for name in KEPT_ATTRIBUTES:
            if name in a:
                self.attributes.setdefault(name, []).append(a[name])
        if tag in _SKIP_TEXT:
            self._skip += 1
        elif tag == "code":
            self._code = []
        elif tag == "form":
            self._form = Form(action=a.get("action", ""), method=(a.get("method") or "get").lower())
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image"):
                self._form.buttons.append(Button(a.get("name", ""), a.get("value", ""), a.get("value", "")))
            else:
                self._form.fields.append(
                    Field(
                        a.get("name", ""),
                        a.get("value", "on" if kind in ("radio", "checkbox") else ""),
                        kind,
                        "checked" in a,
                        a,
                    )
                )
        elif tag == "button":
            self._button = {
                "name": a.get("name", ""),
                "value": a.get("value", ""),
                "type": (a.get("type") or "submit").lower(),
                "label": [],
            }
        elif tag == "select":
            self._select = {"name": a.get("name", ""), "value": None, "first": None}
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select["first"] is None:
                self._select["first"] = value
            if "selected" in a:
                self._select["value"] = value
        elif tag == "textarea":
            self._textarea = {"name": a.get("name", ""), "text": []}

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in _SKIP_TEXT or tag in ("button", "select", "textarea", "code", "form"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in _SKIP_TEXT:
            self._skip = max(0, self._skip - 1)
        elif tag == "code" and self._code is not None:
            self.code_text.append(" ".join("".join(self._code).split()))
            self._code = None
        elif tag == "form":
            self._form = None
        elif tag == "button" and self._button is not None:
            b = self._button
            if self._form is not None and b["type"] == "submit":
                self._form.buttons.append(Button(b["name"], b["value"], " ".join("".join(b["label"]).split())))
            self._button = None
        elif tag == "select" and self._select is not None:
            s = self._select
            if self._form is not None:
                self._form.fields.append(
                    Field(s["name"], s["value"] if s["value"] is not None else s["first"] or "", "select")
                )
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            t = self._textarea
            if self._form is not None:
                self._form.fields.append(Field(t["name"], "".join(t["text"]), "textarea"))
            self._textarea = None

    def handle_data(self, data):
        if self._skip:
            return
        if self._button is not None:
            self._button["label"].append(data)
        if self._textarea is not None:
            self._textarea["text"].append(data)
        if self._code is not None:
            self._code.append(data)
        self.text.append(data)


def parse_page(url: str, status: int, headers: dict[str, str], html: str) -> Page:
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    return Page(
        url=url,
        status=status,
        headers=headers,
        html=html,
        forms=parser.forms,
        attributes=parser.attributes,
        text=" ".join(" ".join(parser.text).split()),
        code_text=parser.code_text,
    )


class BotClient:
    """A browser for one bot: cookies kept across requests, redirects followed, CSRF sent like a form post."""

    def __init__(self, base_url: str, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        parts = urllib.parse.urlsplit(self.base_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.timeout = timeout
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    # --- URLs and cookies ---------------------------------------------------------------------------------
    def url(self, path_or_url: str) -> str:
        return urllib.parse.urljoin(self.base_url + "/", path_or_url)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)

    def cookie_header(self) -> str:
        """The Cookie header for the websocket handshake (urllib's jar is not used by the websocket client)."""
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies)

    # --- requests -----------------------------------------------------------------------------------------
    def get(self, path: str, headers: dict[str, str] | None = None) -> Page:
        return self._open(urllib.request.Request(self.url(path), headers=self._headers(headers), method="GET"))

    def get_json(self, path: str) -> dict:
        page = self.get(path, {"Accept": "application/json"})
        if page.status != 200:
            raise BotError(f"GET {page.path} answered {page.status}: {page.text[:200]}")
        try:
            return json.loads(page.html)
        except ValueError:
            raise BotError(f"GET {page.path} did not answer JSON: {page.html[:200]!r}") from None

    def post(self, path: str, data: list[tuple[str, str]], headers: dict[str, str] | None = None) -> Page:
        pairs = list(data)
        token = self.cookie(CSRF_COOKIE)
        if token and not any(name == CSRF_FIELD for name, _ in pairs):
            pairs.append((CSRF_FIELD, token))  # what {% csrf_token %} would have put in the form
        body = urllib.parse.urlencode(pairs).encode()
        # A browser's form post: the token travels in the body only, and Origin names the site (Django
        # compares it with the Host when present).
        extra = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin, **(headers or {})}
        return self._open(
            urllib.request.Request(self.url(path), data=body, headers=self._headers(extra), method="POST")
        )

    def submit(self, page: Page, form: Form, button: str | None = None, choices: dict[str, str] | None = None) -> Page:
        """Submit ``form`` of ``page`` as a browser would, pressing the button labelled ``button``."""
        pressed = None
        if button is not None:
            pressed = form.button(button)
            if pressed is None:
                labels = [b.label or b.value for b in form.buttons]
                raise BotError(f"no button {button!r} in the form on {page.path} (buttons: {labels})")
        target = urllib.parse.urljoin(page.url, form.action) if form.action else page.url
        data = form.data(pressed, choices)
        if form.method == "post":
            return self.post(target, data)
        query = urllib.parse.urlencode(data)
        return self.get(f"{target.split('?')[0]}?{query}" if query else target)

    def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html,application/json"}
        headers.update(extra or {})
        return headers

    def _open(self, request: urllib.request.Request) -> Page:
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return self._page(response.geturl(), response.status, response.headers, response.read())
        except urllib.error.HTTPError as err:
            # 4xx/5xx still carry a page; callers decide whether it is fatal.
            with err:
                return self._page(err.geturl() or request.full_url, err.code, err.headers, err.read())
        except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
            raise BotError(f"{request.get_method()} {request.full_url} failed: {err}") from None

    @staticmethod
    def _page(url: str, status: int, headers, body: bytes) -> Page:
        charset = headers.get_content_charset() if hasattr(headers, "get_content_charset") else None
        html = body.decode(charset or "utf-8", errors="replace")
        lowered = {k.lower(): v for k, v in headers.items()} if headers else {}
        if "html" not in lowered.get("content-type", "text/html"):
            return Page(url=url, status=status, headers=lowered, html=html, text=html)
        return parse_page(url, status, lowered, html)
