package com.bloceclat.engine.protocol;

import com.bloceclat.engine.Golden;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The golden solver positions (shared with the solver service's tests): each request line gets
 * exactly the recorded answer, but for the timing fields; each malformed line its error.
 */
class SolverProtocolTest {

    @TestFactory
    List<DynamicTest> goldenPositions() throws Exception {
        String[] requests = Golden.text("solver/positions.jsonl").split("\n");
        String[] answers = Golden.text("solver/answers.jsonl").split("\n");
        assertEquals(requests.length, answers.length);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            String request = requests[i];
            JsonNode expected = Golden.JSON.readTree(answers[i]);
            tests.add(DynamicTest.dynamicTest(expected.get("id").asText(), () -> {
                ObjectNode actual = (ObjectNode) Golden.JSON.readTree(SolverProtocol.answerLine(request));
                assertTrue(actual.get("nodes").asLong() >= 0 && actual.get("micros").asLong() >= 0);
                actual.remove("nodes");
                actual.remove("micros");
                assertEquals(expected, actual);
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> malformedRequestsGetErrorLines() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Golden.text("solver/malformed.jsonl").split("\n")) {
            JsonNode c = Golden.JSON.readTree(line);
            tests.add(DynamicTest.dynamicTest(c.get("error").asText(), () -> {
                JsonNode answer = Golden.JSON.readTree(SolverProtocol.answerLine(c.get("request").asText()));
                assertEquals(c.get("error").asText(), answer.get("error").asText());
                assertEquals(2, answer.size(), "only id and error");
            }));
        }
        return tests;
    }

    /** What a client writes and reads (SolveRequest to JSON, JSON to Solution) is what the solver reads and writes. */
    @TestFactory
    List<DynamicTest> typedRequestsAndAnswersRoundTrip() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Golden.text("solver/positions.jsonl").split("\n")) {
            JsonNode node = Golden.JSON.readTree(line);
            tests.add(DynamicTest.dynamicTest(node.get("id").asText(), () -> {
                SolveRequest request = SolverProtocol.parse(node);
                ObjectNode written = SolverProtocol.toJson(node.get("id"), request);
                assertEquals(request, SolverProtocol.parse(written));
                JsonNode answer = Golden.JSON.readTree(SolverProtocol.answerLine(written.toString()));
                Solution read = SolverProtocol.solution(answer);
                assertEquals(answer.toString(), SolverProtocol.toJson(node.get("id"), read).toString());
            }));
        }
        return tests;
    }

    @Test
    void anErrorOrForeignAnswerIsRefusedWithItsReason() throws Exception {
        ProtocolException error = assertThrows(ProtocolException.class, () -> SolverProtocol.solution(
                Golden.JSON.readTree("{\"id\":1,\"error\":\"piece 0: unknown piece id \\\"Q7\\\"\"}")));
        assertEquals("piece 0: unknown piece id \"Q7\"", error.getMessage());
        ProtocolException foreign = assertThrows(ProtocolException.class, () -> SolverProtocol.solution(
                Golden.JSON.readTree("{\"placements\":[{\"piece\":3,\"row\":0,\"col\":0}]}")));
        assertEquals("piece must be from 0 to 2, got 3", foreign.getMessage());
    }
}
