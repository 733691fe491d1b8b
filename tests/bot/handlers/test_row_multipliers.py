"""The card's and /ledger's rows say a hand's multiplier as its result line does (40花 ×2, not 40花)."""

from __future__ import annotations

from harness import Table


async def test_a_doubled_hand_keeps_its_multiplier_in_the_card_and_the_ledger(seated_table: Table) -> None:
    """A 荒庄 makes the next hand 滴零 (×2): 南's 13 花 self-draw is 13花 ×2 in the result, the card's row
    and /ledger's row alike."""
    table = seated_table
    await table.say("ann", "/draw")
    await table.press("bob", "✅ 确认")
    await table.say("ann", "/hu 南 自摸 8花")
    done = await table.press("bob", "✅ 确认")
    assert done.edits[0].text.startswith("第2局 南 自摸 13花 ×2 →"), done.edits[0].text
    card = table.pinned()
    assert card is not None and "2 南 自摸 13花 ×2 | −26 +78 −26 −26" in card.text, card.text
    assert "2 南 自摸 13花 ×2 |" in (await table.say("ann", "/ledger")).text
