package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.CreateTableRequest;
import io.calabresella.v1.Game;
import io.calabresella.v1.GameOptions;
import io.calabresella.v1.SeatKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Names and key=value options to GameOptions settings; what is not the notation refused. */
class RulesTest {
    @Test
    void optionsBecomeSettingsAsTheServerReadsThem() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put(" Target ", " 11 ");
        o.put("accusi", "false");
        o.put("colour", "red");
        GameOptions g = Rules.gameOptions("Tressette-In-Due", o);
        assertEquals(Game.GAME_TRESSETTE_IN_DUE, g.getGame());
        assertEquals(Map.of("target", "11", "accusi", "false", "colour", "red"), g.getSettingsMap());
        assertEquals(GameOptions.RulesCase.RULES_NOT_SET, g.getRulesCase(), "no typed rules beside the settings");
        assertEquals(List.of("target", "accusi", "colour"), List.copyOf(Rules.settings(o).keySet()), "in the map's order");
        assertTrue(Rules.gameOptions("calabresella", Map.of()).getSettingsMap().isEmpty(), "no options: every default");
    }

    @Test
    void gameNamesComeFromTheGameEnum() {
        assertEquals(List.of("calabresella", "tressette", "tressette-in-due", "tressette-chiamata", "briscola-chiamata"),
                Rules.GAMES);
        for (String name : Rules.GAMES) {
            assertEquals(name, Rules.gameName(Rules.game(name.toUpperCase(java.util.Locale.ROOT))));
        }
        assertEquals("", Rules.gameName(Game.GAME_UNSPECIFIED));
        String unknown = assertThrows(IllegalArgumentException.class, () -> Rules.game("skat")).getMessage();
        assertTrue(unknown.contains("\"skat\"") && unknown.contains("briscola-chiamata"), unknown);
        assertThrows(IllegalArgumentException.class, () -> Rules.game(""));
    }

    @Test
    void whatIsNotTheNotationIsRefused() {
        String empty = assertThrows(IllegalArgumentException.class,
                () -> Rules.gameOptions("tressette", Map.of(" ", "4"))).getMessage();
        assertTrue(empty.contains("has no key"), empty);
        Map<String, String> twice = new LinkedHashMap<>();
        twice.put("target", "5");
        twice.put("TARGET", "7");
        String dup = assertThrows(IllegalArgumentException.class, () -> Rules.settings(twice)).getMessage();
        assertTrue(dup.contains("target is given twice"), dup);
        String dupTable = assertThrows(IllegalArgumentException.class,
                () -> NewTable.of("tressette").option("target", "5").option(" Target", "7").request()).getMessage();
        assertTrue(dupTable.contains("given twice"), dupTable);
        assertEquals("7", NewTable.of("tressette").option("target", "5").option("target", "7").request()
                .getOptions().getSettingsOrThrow("target"), "the same key set again: the later value");
        assertThrows(IllegalArgumentException.class, () -> Rules.seatKind("robot"));
        assertThrows(IllegalArgumentException.class, () -> Rules.seatKind("pimcx"));
    }

    @Test
    void theSearchBotIsANamedSeatWithItsName() {
        var r = NewTable.of("tressette-in-due").seats("heuristic", " PIMC:ms=50 ").request();
        assertEquals(List.of(SeatKind.SEAT_KIND_BOT_HEURISTIC, SeatKind.SEAT_KIND_BOT_NAMED), r.getSeatsList());
        assertEquals(List.of("", "pimc:ms=50"), r.getSeatBotsList());
        assertEquals(0, NewTable.of("tressette-in-due").seats("open", "random").request().getSeatBotsCount());
        var best = NewTable.of("calabresella").seats("Best", "ismcts:iterations=500", "best:ms=80").request();
        assertEquals(List.of("best", "ismcts:iterations=500", "best:ms=80"), best.getSeatBotsList());
        assertThrows(IllegalArgumentException.class, () -> Rules.seatKind("bestx"));
    }

    @Test
    void aNewTableBecomesItsRequest() {
        CreateTableRequest r = NewTable.of("tressette-in-due").option("target", "11")
                .seats("open", "Heuristic").seed(31).name("t").request();
        assertEquals(Map.of("target", "11"), r.getOptions().getSettingsMap());
        assertEquals(List.of(SeatKind.SEAT_KIND_OPEN, SeatKind.SEAT_KIND_BOT_HEURISTIC), r.getSeatsList());
        assertEquals(31, r.getSeed());
        assertFalse(NewTable.of("tressette").request().hasSeed(), "no seed: the server draws one");
        assertThrows(IllegalArgumentException.class, () -> NewTable.of("tressette").seats("open", "ghost").request());
    }
}
