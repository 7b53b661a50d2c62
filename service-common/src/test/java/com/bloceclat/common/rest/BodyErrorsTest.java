package com.bloceclat.common.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A body Jackson cannot read is described by field, never in Jackson's words, which name the server's classes. */
class BodyErrorsTest {

    record Move(Integer moveNumber, Boolean daily, String level, List<Integer> cells) {
    }

    private static final ObjectMapper STRICT = StrictJson.apply(new ObjectMapper());

    private static String detail(String body) {
        try {
            STRICT.readValue(body, Move.class);
        } catch (JsonProcessingException e) {
            String detail = BodyErrors.detail(e);
            assertFalse(detail.contains("com.bloceclat") || detail.contains("java.lang"), detail);
            return detail;
        }
        throw new AssertionError("read: " + body);
    }

    @Test
    void eachKindOfBadBodyIsSaidByField() {
        assertTrue(detail("{\"moveNumber\": ").startsWith("Malformed JSON: Unexpected end-of-input"));
        assertEquals("Unknown field \"dialy\": the body takes cells, daily, level, moveNumber",
                detail("{\"dialy\": true}"));
        assertEquals("Field \"moveNumber\" must be a whole number", detail("{\"moveNumber\": {}}"));
        // StrictJson: no coercion Jackson's defaults make (a fraction cut, a quoted number, a number as text)
        assertEquals("Field \"moveNumber\" must be a whole number", detail("{\"moveNumber\": 1.9}"));
        assertEquals("Field \"moveNumber\" must be a whole number", detail("{\"moveNumber\": \"1\"}"));
        assertEquals("Field \"daily\" must be true or false", detail("{\"daily\": 1}"));
        assertEquals("Field \"level\" must be text", detail("{\"level\": 5}"));
        assertEquals("Field \"daily\" must be true or false", detail("{\"daily\": [1]}"));
        assertEquals("Field \"level\" must be text", detail("{\"level\": {\"a\": 1}}"));
        assertEquals("Field \"cells[1]\" must be a whole number", detail("{\"cells\": [1, {}]}"));
        assertEquals("Malformed JSON: the body must be one JSON object", detail("[1, 2]"));
        assertEquals("Malformed JSON: the body must be one JSON object", detail("{\"level\": \"HARD\"} {}"));
        assertEquals("Unknown field \"" + "q".repeat(64) + "…\": the body takes cells, daily, level, moveNumber",
                detail("{\"" + "q".repeat(5000) + "\": 1}"));
    }
}
