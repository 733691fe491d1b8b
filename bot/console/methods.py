"""The Bot API methods a group scorekeeper uses, answered on the in-memory chats (`HANDLERS` by name)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.console.chats import ChatServer, shallow_message
from bot.console.model import JSON, BotAPIError, ChatState, UploadedFile, bad_request
from bot.console.params import MAX_CAPTION, check_markup, required_param, text_param

# Highest value of each animated dice emoji (https://core.telegram.org/bots/api#senddice).
DICE_FACES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}


def _bot_says(api: ChatServer, params: JSON, **fields: Any) -> JSON:
    """Stores and returns a new message from the bot in the request's chat (reply and inline keyboard)."""
    chat = api.chat(required_param(params, "chat_id"))
    markup = check_markup(params.get("reply_markup"))
    reply = None
    reply_parameters = params.get("reply_parameters")
    reply_id = (reply_parameters or {}).get("message_id") if isinstance(reply_parameters, dict) else None
    reply_id = reply_id or params.get("reply_to_message_id")
    if reply_id is not None:
        allow = isinstance(reply_parameters, dict) and reply_parameters.get("allow_sending_without_reply")
        try:
            reply = shallow_message(api.live_message(chat, reply_id))
        except BotAPIError:
            if not (allow or params.get("allow_sending_without_reply")):
                raise bad_request("message to be replied not found") from None
    message = api.new_message(
        chat,
        api.bot_user,
        reply_to_message=reply,
        reply_markup=markup if markup and "inline_keyboard" in markup else None,
        **fields,
    )
    return dict(message)


def _store_upload(
    api: ChatServer, params: JSON, files: Mapping[str, UploadedFile], field_name: str, default_mime: str
) -> UploadedFile:
    """The upload a send method names: a multipart part (attach:// or by field), a known file_id, or a URL."""
    value = params.get(field_name)
    if isinstance(value, str) and value.startswith("attach://"):
        upload = files.get(value.removeprefix("attach://"))
    elif isinstance(value, str) and value in api.files:
        return api.files[value]
    elif isinstance(value, str) and value:
        upload = UploadedFile(filename=value.rsplit("/", 1)[-1], content=b"", mime_type=None)
    else:
        upload = files.get(field_name)
    if upload is None:
        raise bad_request(f"there is no {field_name} in the request")
    if not upload.content and not isinstance(value, str):
        raise bad_request("file must be non-empty")
    file_id = api.new_file_id(field_name)
    stored = UploadedFile(upload.filename, upload.content, upload.mime_type or default_mime, file_id)
    api.files[file_id] = stored
    return stored


Handler = Callable[[ChatServer, JSON, dict[str, UploadedFile]], Any]
HANDLERS: dict[str, Handler] = {}  # by lower-case method name, as Telegram matches methods


def _method(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name.lower()] = fn
        return fn

    return register


@_method("getMe")
def _get_me(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    return dict(api.bot_user)


@_method(
    "logOut",
    "close",
    "sendChatAction",
    "setMyDescription",
    "setMyShortDescription",
    "setMyName",
    "setChatMenuButton",
    "setMyDefaultAdministratorRights",
)
def _true(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    if "chat_id" in params:
        api.chat(params["chat_id"])
    return True


@_method("getUpdates")
def _get_updates(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    if api.webhook_url:
        raise BotAPIError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )
    return api.take_updates(params.get("offset"), params.get("limit"))


@_method("deleteWebhook")
def _delete_webhook(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.webhook_url = ""
    api.webhook_secret = None
    if params.get("drop_pending_updates"):
        api.pending.clear()
    return True


@_method("setWebhook")
def _set_webhook(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.webhook_url = str(required_param(params, "url"))
    api.webhook_secret = str(params["secret_token"]) if params.get("secret_token") else None
    if params.get("drop_pending_updates"):
        api.pending.clear()
    api.updates_changed.notify_all()
    return True


@_method("getWebhookInfo")
def _get_webhook_info(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    return {"url": api.webhook_url, "has_custom_certificate": False, "pending_update_count": len(api.pending)}


def _commands_key(params: JSON) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps([scope, params.get("language_code") or ""], sort_keys=True)


@_method("setMyCommands")
def _set_my_commands(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    commands = params.get("commands")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > 100:
        raise bad_request("too many commands")
    for command in commands:
        name = str(command.get("command", "")).removeprefix("/")
        description = str(command.get("description", ""))
        if not (
            1 <= len(name) <= 32
            and all(c.isascii() and (c.islower() or c.isdigit() or c == "_") for c in name)
        ):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(description) <= 256:
            raise bad_request("command description is empty" if not description else "BOT_COMMAND_INVALID")
    api.commands[_commands_key(params)] = [dict(c) for c in commands]
    return True


@_method("getMyCommands")
def _get_my_commands(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    return list(api.commands.get(_commands_key(params), []))


@_method("deleteMyCommands")
def _delete_my_commands(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.commands.pop(_commands_key(params), None)
    return True


@_method("sendMessage")
def _send_message(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(required_param(params, "chat_id"))
    text = text_param(params)
    return _bot_says(api, params, text=text)


@_method("sendDice")
def _send_dice(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    emoji = params.get("emoji") or "🎲"
    if emoji not in DICE_FACES:
        raise bad_request("emoji must be one of " + ", ".join(DICE_FACES))
    value = api.forced_dice.pop(0) if api.forced_dice else api.random.randint(1, DICE_FACES[emoji])
    return _bot_says(api, params, dice={"emoji": emoji, "value": value})


@_method("sendPhoto")
def _send_photo(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(required_param(params, "chat_id"))
    caption = text_param(params, "caption", MAX_CAPTION, required=False)
    upload = _store_upload(api, params, files, "photo", "image/png")
    sizes = [
        {
            "file_id": f"{upload.file_id}-{w}",
            "file_unique_id": f"{upload.file_id}-{w}u",
            "width": w,
            "height": w * 3 // 4,
            "file_size": upload.size,
        }
        for w in (90, 320, 800)
    ]
    sizes[-1]["file_id"] = upload.file_id
    api.files.setdefault(upload.file_id, upload)
    return _bot_says(api, params, photo=sizes, caption=caption)


@_method("sendDocument")
def _send_document(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(required_param(params, "chat_id"))
    caption = text_param(params, "caption", MAX_CAPTION, required=False)
    upload = _store_upload(api, params, files, "document", "application/octet-stream")
    document = {
        "file_id": upload.file_id,
        "file_unique_id": upload.file_id + "u",
        "file_name": upload.filename,
        "mime_type": upload.mime_type,
        "file_size": upload.size,
    }
    return _bot_says(api, params, document=document, caption=caption)


def _editable(api: ChatServer, params: JSON) -> tuple[ChatState, JSON]:
    if params.get("inline_message_id"):
        raise bad_request("inline messages are not supported by the in-memory Bot API")
    chat = api.chat(required_param(params, "chat_id"))
    try:
        message = api.live_message(chat, required_param(params, "message_id"))
    except BotAPIError:
        raise bad_request("message to edit not found") from None
    if message["from"]["id"] != api.bot_user["id"]:
        raise bad_request("message can't be edited")
    return chat, message


def _apply_edit(api: ChatServer, message: JSON, changes: JSON) -> JSON:
    unchanged = all(message.get(k) == v for k, v in changes.items())
    if unchanged and api.not_modified_errors:
        raise bad_request(
            "message is not modified: specified new message content and reply markup are "
            "exactly the same as a current content and reply markup of the message"
        )
    for key, value in changes.items():
        if value is None:
            message.pop(key, None)
        else:
            message[key] = value
    message["edit_date"] = int(api.clock())
    return dict(message)


@_method("editMessageText")
def _edit_message_text(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    if "text" not in message:
        raise bad_request("there is no text in the message to edit")
    text = text_param(params)
    markup = check_markup(params.get("reply_markup"))
    return _apply_edit(api, message, {"text": text, "reply_markup": markup})


@_method("editMessageCaption")
def _edit_message_caption(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    if "text" in message:
        raise bad_request("there is no caption in the message to edit")
    caption = text_param(params, "caption", MAX_CAPTION, required=False)
    markup = check_markup(params.get("reply_markup"))
    return _apply_edit(api, message, {"caption": caption, "reply_markup": markup})


@_method("editMessageReplyMarkup")
def _edit_message_reply_markup(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    markup = check_markup(params.get("reply_markup"))
    if markup is not None and not markup.get("inline_keyboard"):
        markup = None
    return _apply_edit(api, message, {"reply_markup": markup})


@_method("deleteMessage")
def _delete_message(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(required_param(params, "chat_id"))
    try:
        message = api.live_message(chat, required_param(params, "message_id"))
    except BotAPIError:
        raise bad_request("message to delete not found") from None
    if message["from"]["id"] != api.bot_user["id"] and not chat.bot_is_admin:
        raise bad_request("message can't be deleted")
    chat.deleted.add(message["message_id"])
    if message["message_id"] in chat.pinned:
        chat.pinned.remove(message["message_id"])
    return True


def _pin_rights(chat: ChatState) -> None:
    if not (chat.can_pin and chat.bot_is_admin) and chat.type != "private":
        raise bad_request("not enough rights to manage pinned messages in the chat")


@_method("pinChatMessage")
def _pin_chat_message(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(required_param(params, "chat_id"))
    _pin_rights(chat)
    message = api.live_message(chat, required_param(params, "message_id"))
    mid = message["message_id"]
    if mid in chat.pinned:
        chat.pinned.remove(mid)
    chat.pinned.append(mid)
    return True


@_method("unpinChatMessage")
def _unpin_chat_message(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(required_param(params, "chat_id"))
    _pin_rights(chat)
    mid = params.get("message_id")
    if mid is None:
        if chat.pinned:
            chat.pinned.pop()
        return True
    if int(mid) not in chat.pinned:
        raise bad_request("message is not pinned")
    chat.pinned.remove(int(mid))
    return True


@_method("unpinAllChatMessages")
def _unpin_all(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(required_param(params, "chat_id"))
    _pin_rights(chat)
    chat.pinned.clear()
    return True


@_method("getChat")
def _get_chat(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    chat = api.chat(required_param(params, "chat_id"))
    info = {
        **chat.as_chat(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }
    if chat.pinned:
        info["pinned_message"] = copy.deepcopy(chat.messages[chat.pinned[-1]])
    return info


_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}


def _member(api: ChatServer, chat: ChatState, user: JSON) -> JSON:
    uid = user["id"]
    if uid == api.bot_user["id"]:
        if chat.bot_is_admin:
            return {
                "status": "administrator",
                "user": user,
                **_ADMIN_RIGHTS,
                "can_pin_messages": chat.can_pin,
            }
        return {"status": "member", "user": user}
    if uid == chat.creator:
        return {"status": "creator", "user": user, "is_anonymous": False}
    if uid in chat.admins:
        return {"status": "administrator", "user": user, **_ADMIN_RIGHTS}
    if uid in chat.members:
        return {"status": "member", "user": user}
    return {"status": "left", "user": user}


@_method("getChatMember")
def _get_chat_member(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    chat = api.chat(required_param(params, "chat_id"))
    uid = int(required_param(params, "user_id"))
    user = api.bot_user if uid == api.bot_user["id"] else api.users_by_id.get(uid)
    if user is None:
        raise bad_request("user not found")
    return _member(api, chat, user)


@_method("getChatAdministrators")
def _get_chat_administrators(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    chat = api.chat(required_param(params, "chat_id"))
    ids = ([chat.creator] if chat.creator is not None else []) + sorted(chat.admins - {chat.creator})
    admins = [_member(api, chat, api.users_by_id[uid]) for uid in ids]
    if chat.bot_is_admin:
        admins.append(_member(api, chat, api.bot_user))
    return admins


@_method("getChatMemberCount")
def _get_chat_member_count(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> int:
    chat = api.chat(required_param(params, "chat_id"))
    return len(chat.members | chat.admins) + 1


@_method("answerCallbackQuery")
def _answer_callback_query(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    query_id = str(required_param(params, "callback_query_id"))
    if query_id not in api.open_queries:
        raise bad_request("query is too old and response timeout expired or query ID is invalid")
    text = params.get("text")
    if text is not None and len(str(text)) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    api.answered_queries[query_id] = api.open_queries.pop(query_id)
    return True


@_method("answerInlineQuery")
def _answer_inline_query(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> bool:
    """Telegram's limits: a query answered once, at most 50 results, unique ids of at most 64 bytes."""
    query_id = str(required_param(params, "inline_query_id"))
    if query_id not in api.open_queries or "query" not in api.open_queries[query_id]:
        raise bad_request("query is too old and response timeout expired or query ID is invalid")
    results = params.get("results") or []
    if not isinstance(results, list) or len(results) > 50:
        raise bad_request("RESULTS_TOO_MUCH")
    ids = [str(r.get("id", "")) for r in results]
    if len(set(ids)) != len(ids) or any(not 0 < len(i.encode()) <= 64 for i in ids):
        raise bad_request("RESULT_ID_INVALID")
    api.answered_queries[query_id] = api.open_queries.pop(query_id)
    return True


@_method("getFile")
def _get_file(api: ChatServer, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    file_id = str(required_param(params, "file_id"))
    stored = api.files.get(file_id)
    if stored is None:
        raise bad_request("invalid file_id")
    return {
        "file_id": file_id,
        "file_unique_id": file_id + "u",
        "file_size": stored.size,
        "file_path": f"documents/{stored.filename}",
    }
