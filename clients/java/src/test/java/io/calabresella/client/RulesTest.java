package io.calabresella.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calabresella.v1.ChiamataAuction;
import io.calabresella.v1.CreateTableRequest;
import io.calabresella.v1.FirstLead;
import io.calabresella.v1.Game;
import io.calabresella.v1.GameOptions;
import io.calabresella.v1.MatchEnd;
import io.calabresella.v1.SeatKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options builder: names and key=value options to GameOptions, wrong ones refused. */
class RulesTest {
    @Test
    void calabresellaOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("preset", "terziglio");
        o.put("aperta", "YES");
        o.put("target", "5");
        o.put("players", "4");
        GameOptions g = Rules.gameOptions("Calabresella", o);
        assertEquals(Game.GAME_CALABRESELLA, g.getGame());
        assertTrue(g.getCalabresella().getTerziglio());
        assertTrue(g.getCalabresella().getAperta());
        assertEquals(5, g.getCalabresella().getTarget());
        assertEquals(4, g.getCalabresella().getPlayers());
        assertFalse(g.getCalabresella().hasStramazzo(), "unset options stay unset");
        GameOptions due = Rules.gameOptions("calabresella", Map.of("a_due", "true"));
        assertEquals(MatchEnd.MATCH_END_INDIVIDUAL, due.getCalabresella().getMatchEnd(), "a due plays individual");
    }

    @Test
    void tressetteAndChiamataOptions() {
        GameOptions t = Rules.gameOptions("tressette-in-due", Map.of("target", "11", "follow_suit_always", "true"));
        assertEquals(Game.GAME_TRESSETTE_IN_DUE, t.getGame());
        assertEquals(11, t.getTressette().getTarget());
        assertTrue(t.getTressette().getFollowSuitAlways());
        GameOptions c = Rules.gameOptions("briscola-chiamata",
                Map.of("hands", "2", "auction", "points", "first_lead", "caller"));
        assertEquals(Game.GAME_BRISCOLA_CHIAMATA, c.getGame());
        assertEquals(2, c.getChiamata().getHands());
        assertEquals(ChiamataAuction.CHIAMATA_AUCTION_POINTS, c.getChiamata().getAuction());
        assertEquals(FirstLead.FIRST_LEAD_CALLER, c.getChiamata().getFirstLead());
        assertEquals(Game.GAME_TRESSETTE_CHIAMATA,
                Rules.gameOptions("tressette-chiamata", Map.of("solo_bid", "1")).getGame());
    }

    @Test
    void wrongNamesAndValuesSayWhatIsAllowed() {
        String game = assertThrows(IllegalArgumentException.class, () -> Rules.game("skat")).getMessage();
        assertTrue(game.contains("\"skat\"") && game.contains("briscola-chiamata"), game);
        String key = assertThrows(IllegalArgumentException.class,
                () -> Rules.gameOptions("tressette", Map.of("players", "4"))).getMessage();
        assertTrue(key.contains("\"players\"") && key.contains("accusi"), key);
        String flag = assertThrows(IllegalArgumentException.class,
                () -> Rules.gameOptions("calabresella", Map.of("aperta", "maybe"))).getMessage();
        assertTrue(flag.contains("true or false"), flag);
        assertThrows(IllegalArgumentException.class, () -> Rules.gameOptions("calabresella", Map.of("target", "-1")));
        assertThrows(IllegalArgumentException.class, () -> Rules.gameOptions("calabresella", Map.of("players", "5")));
        assertThrows(IllegalArgumentException.class,
                () -> Rules.gameOptions("briscola-chiamata", Map.of("auction", "dutch")));
        assertThrows(IllegalArgumentException.class, () -> Rules.seatKind("robot"));
        assertThrows(IllegalArgumentException.class, () -> Rules.seatKind("pimcx"));
    }

    @Test
    void theSearchBotIsANamedSeatWithItsName() {
        var r = NewTable.of("tressette-in-due").seats("heuristic", " PIMC:ms=50 ").request();
        assertEquals(List.of(SeatKind.SEAT_KIND_BOT_HEURISTIC, SeatKind.SEAT_KIND_BOT_NAMED), r.getSeatsList());
        assertEquals(List.of("", "pimc:ms=50"), r.getSeatBotsList());
        assertEquals(0, NewTable.of("tressette-in-due").seats("open", "random").request().getSeatBotsCount());
    }

    @Test
    void aNewTableBecomesItsRequest() {
        CreateTableRequest r = NewTable.of("tressette-in-due").option("target", "11")
                .seats("open", "Heuristic").seed(31).name("t").request();
        assertEquals(11, r.getOptions().getTressette().getTarget());
        assertEquals(java.util.List.of(SeatKind.SEAT_KIND_OPEN, SeatKind.SEAT_KIND_BOT_HEURISTIC), r.getSeatsList());
        assertEquals(31, r.getSeed());
        assertFalse(NewTable.of("tressette").request().hasSeed(), "no seed: the server draws one");
        assertThrows(IllegalArgumentException.class, () -> NewTable.of("tressette").seats("open", "ghost").request());
    }
}
