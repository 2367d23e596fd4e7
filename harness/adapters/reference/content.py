"""Content blocks that both sides can carry: text and images.

* Text: empty text is never sent to anthropic-messages (the API rejects empty
  text blocks: https://docs.anthropic.com/en/api/messages); it carries nothing,
  so it is dropped on the way there.
* Images: openai ``{type: "image_url", image_url: {url}}`` <-> anthropic
  ``{type: "image", source: {type: "base64", media_type, data}}`` for a
  ``data:`` URL, ``{type: "image", source: {type: "url", url}}`` otherwise.
  OpenAI's ``detail`` has no Anthropic equivalent and is dropped.
* Anything else (audio, files, documents, server tool blocks, ...) has no
  faithful equivalent: it is refused with a ``ConversionError`` naming it,
  rather than dropped without a word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from toolwire.harness.adapters.reference.errors import ConversionError
from toolwire.harness.model import Block, OpaqueBlock, TextBlock

_DATA_URL = re.compile(r"^data:(?P<media>[^;,]+);base64,(?P<data>.*)$", re.DOTALL)


def _refuse(block: Block, where: str, target: str) -> ConversionError:
    kind = block.type if isinstance(block, OpaqueBlock) else type(block).__name__
    return ConversionError(
        f"{where}: a {kind!r} block has no equivalent in {target}",
        hint="remove it or convert it to text before converting the payload",
    )


def image_to_anthropic(block: OpaqueBlock, where: str) -> OpaqueBlock:
    image_url = block.raw.get("image_url")
    url = image_url.get("url") if isinstance(image_url, dict) else None
    if not isinstance(url, str):
        raise ConversionError(f"{where}: an image_url part without a url string")
    match = _DATA_URL.match(url)
    if match:
        source = {"type": "base64", "media_type": match["media"], "data": match["data"]}
    else:
        source = {"type": "url", "url": url}
    return OpaqueBlock(type="image", raw={"type": "image", "source": source})


def image_to_openai(block: OpaqueBlock, where: str) -> OpaqueBlock:
    source = block.raw.get("source")
    if isinstance(source, dict) and source.get("type") == "base64":
        url = f"data:{source.get('media_type')};base64,{source.get('data')}"
    elif isinstance(source, dict) and source.get("type") == "url":
        url = str(source.get("url"))
    else:
        raise _refuse(block, where, "openai-chat (only base64 and url images map)")
    return OpaqueBlock(type="image_url", raw={"type": "image_url", "image_url": {"url": url}})


def to_anthropic_content(blocks: Iterable[Block], where: str) -> list[Block]:
    """User-side content (text and images) for anthropic-messages."""
    converted: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            if block.text:
                converted.append(TextBlock(block.text))
        elif isinstance(block, OpaqueBlock) and block.type == "image_url":
            converted.append(image_to_anthropic(block, where))
        elif isinstance(block, OpaqueBlock) and block.type == "refusal":
            refusal = block.raw.get("refusal")
            if isinstance(refusal, str) and refusal:
                converted.append(TextBlock(refusal))
        else:
            raise _refuse(block, where, "anthropic-messages")
    return converted


def to_openai_content(blocks: Iterable[Block], where: str, target: str) -> list[Block]:
    """User-side content (text and images) for a Chat Completions dialect."""
    converted: list[Block] = []
    for block in blocks:
        if isinstance(block, TextBlock):
            converted.append(TextBlock(block.text))
        elif isinstance(block, OpaqueBlock) and block.type == "image":
            converted.append(image_to_openai(block, where))
        else:
            raise _refuse(block, where, target)
    return converted


def texts(blocks: Iterable[Block]) -> list[str]:
    return [block.text for block in blocks if isinstance(block, TextBlock)]
