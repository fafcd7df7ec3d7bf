"""Counting a prompt's tokens, and what a server says about its model: its context length and a way to count.

A model with a 4,096-token context answers a longer prompt with HTTP 400 (Hive prompts reached 6,500-11,800 tokens,
issue 21), so prompts are measured before they are sent. Where the server can count tokens with the model's own
tokenizer (llama-cpp-python's ``/extras/tokenize/count``, llama.cpp's ``/tokenize``) it is asked; otherwise the
count is an estimate that errs long. Characters per token vary too much for a ratio: SmolLM2's tokenizer took 3.8
characters a token on the rules prose, 2.6 on action lists and 1.3 on Hive move ids ("wA1 -bQ"). So the estimate
counts a token per three letters of each word, one per digit, symbol, newline and run of spaces, plus a tenth, and
a chat template's few tokens per message: on the platform's prompts (rules, observations and action lists of every
game) it came to 1.03-1.72 times SmolLM2's own count, never less.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .client import shared_http_client
from .settings import LLMAgentSettings

logger = logging.getLogger(__name__)

LLAMA_CPP_PYTHON, LLAMA_CPP = "llama-cpp-python", "llama.cpp"
TOKENIZERS = (LLAMA_CPP_PYTHON, LLAMA_CPP)
LETTERS_PER_TOKEN = 3
ESTIMATE_MARGIN = 1.1
MESSAGE_OVERHEAD_TOKENS = 8  # role markers and separators of a chat template
IMAGE_TOKENS = 1000  # what an image part may cost a vision model, whatever its size
SERVER_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class ServerFacts:
    context_tokens: int | None
    tokenizer: str


def root_url(base_url: str) -> str:
    """The server's root: the base URL without its OpenAI ``/v1`` path."""
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def _get_json(url: str) -> object:
    try:
        response = shared_http_client().get(url, timeout=SERVER_TIMEOUT_S)
        return response.json() if response.status_code == 200 else None
    except Exception:  # not this kind of server, or down: nothing learnt
        return None


def _post_json(url: str, body: dict) -> object:
    try:
        response = shared_http_client().post(url, json=body, timeout=SERVER_TIMEOUT_S)
        return response.json() if response.status_code == 200 else None
    except Exception:
        return None


def server_facts(settings: LLMAgentSettings) -> ServerFacts:
    """The context length and token counter of the server behind ``settings`` (None / "" where not found).

    Asked without the API key: these are a local server's own endpoints, and a hosted API has none of them."""
    root = root_url(settings.base_url)
    context = None
    props = _get_json(f"{root}/props")  # llama.cpp's server
    if isinstance(props, dict):
        generation = props.get("default_generation_settings")
        context = (generation or {}).get("n_ctx") if isinstance(generation, dict) else None
        context = context or props.get("n_ctx")
    if not context:
        models = _get_json(f"{settings.base_url.rstrip('/')}/models")  # vLLM reports max_model_len here
        if isinstance(models, dict) and isinstance(models.get("data"), list):
            entry = next((m for m in models["data"] if isinstance(m, dict) and m.get("id") == settings.model),
                         models["data"][0] if models["data"] else {})
            if isinstance(entry, dict):
                meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
                context = entry.get("max_model_len") or entry.get("context_length") or meta.get("n_ctx")
    tokenizer = ""
    counted = _post_json(f"{root}/extras/tokenize/count", {"input": "hello world"})
    if isinstance(counted, dict) and isinstance(counted.get("count"), int):
        tokenizer = LLAMA_CPP_PYTHON
    else:
        tokens = _post_json(f"{root}/tokenize", {"content": "hello world"})
        if isinstance(tokens, dict) and isinstance(tokens.get("tokens"), list):
            tokenizer = LLAMA_CPP
    return ServerFacts(int(context) if isinstance(context, int | float) and context > 0 else None, tokenizer)


def _texts(messages: Sequence[dict]) -> tuple[list[str], int]:
    texts, images = [], 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            for part in content:
                if part.get("type") == "text":
                    texts.append(part.get("text", ""))
                else:
                    images += 1
    return texts, images


_WORD = re.compile(r"[A-Za-z]+")
_SINGLE = re.compile(r"[^\sA-Za-z]")  # a digit, a symbol, a letter of another alphabet
_SPACING = re.compile(r"\n|  +")


def estimate_text_tokens(text: str) -> int:
    """A token count of ``text`` that errs long (see the module's docstring)."""
    words = sum(max(1, math.ceil(len(word) / LETTERS_PER_TOKEN)) for word in _WORD.findall(text))
    return math.ceil(ESTIMATE_MARGIN * (words + len(_SINGLE.findall(text)) + len(_SPACING.findall(text))))


def estimate_tokens(messages: Sequence[dict]) -> int:
    """A token count of chat messages, without the model's tokenizer, that errs long."""
    texts, images = _texts(messages)
    return (sum(estimate_text_tokens(t) for t in texts) + MESSAGE_OVERHEAD_TOKENS * len(messages)
            + IMAGE_TOKENS * images)


def count_tokens(settings: LLMAgentSettings, messages: Sequence[dict]) -> tuple[int, str]:
    """The prompt's tokens and how they were counted: by the server's tokenizer where the probe found one
    (``capabilities["tokenizer"]``), else estimated."""
    tokenizer = settings.capabilities.get("tokenizer", "")
    if tokenizer in TOKENIZERS:
        texts, images = _texts(messages)
        text = "\n".join(texts)
        root = root_url(settings.base_url)
        if tokenizer == LLAMA_CPP_PYTHON:
            reply = _post_json(f"{root}/extras/tokenize/count", {"input": text})
            count = reply.get("count") if isinstance(reply, dict) else None
        else:
            reply = _post_json(f"{root}/tokenize", {"content": text})
            count = len(reply["tokens"]) if isinstance(reply, dict) and isinstance(reply.get("tokens"), list) else None
        if isinstance(count, int):
            return count + MESSAGE_OVERHEAD_TOKENS * len(messages) + IMAGE_TOKENS * images, tokenizer
        logger.info("LLM agent %s: the server did not count tokens; estimating", settings.name)
    return estimate_tokens(messages), "estimate"
