package com.bloceclat.game;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Live-update benchmark (docs/benchmarks.md): {@code races} online races, both players connected by WebSocket;
 * each player places a piece every {@code thinkMs} over REST, and the time from sending a move to the opponent's
 * socket receiving its update is recorded.
 */
public final class LiveLoad {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LiveLoad() {
    }

    static void run(String http, String ws, int races, long thinkMs, int moves) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(races * 2);
        for (int r = 0; r < races; r++) {
            String a = Tokens.player("bench-a-" + r);
            String b = Tokens.player("bench-b-" + r);
            String level = "MEDIUM";
            post(client, http + "/api/matches", a, "{\"mode\": \"ONLINE_RACE\", \"level\": \"" + level + "\"}");
            JsonNode match = JSON.readTree(post(client, http + "/api/matches", b,
                    "{\"mode\": \"ONLINE_RACE\", \"level\": \"" + level + "\"}").body());
            String matchId = match.get("id").asText();
            for (int seat = 0; seat < 2; seat++) {
                String token = seat == 0 ? a : b;
                String gameId = match.get("games").get(seat).get("id").asText();
                int mySeat = seat;
                client.newWebSocketBuilder().header("Authorization", "Bearer " + token)
                        .buildAsync(URI.create(ws + "/api/matches/" + matchId + "/live"), new WebSocket.Listener() {
                            private final StringBuilder text = new StringBuilder();

                            @Override
                            public CompletionStage<?> onText(WebSocket s, CharSequence data, boolean last) {
                                text.append(data);
                                if (last) {
                                    long now = System.nanoTime();
                                    try {
                                        JsonNode f = JSON.readTree(text.toString());
                                        JsonNode g = f.path("game");
                                        if ("update".equals(f.path("type").asText()) && g.path("seat").asInt() != mySeat
                                                && "PLACE".equals(g.path("type").asText())) {
                                            Long t0 = sentAt.get(g.path("gameId").asText() + ":" + g.path("moveNumber"));
                                            if (t0 != null) {
                                                latencies.add(now - t0);
                                            }
                                        }
                                    } catch (Exception e) {
                                        errors.add(e.toString());
                                    }
                                    text.setLength(0);
                                }
                                s.request(1);
                                return null;
                            }
                        }).join();
                Thread player = new Thread(() -> {
                    try {
                        JsonNode state = JSON.readTree(get(client, http + "/api/games/" + gameId, token).body());
                        for (int n = 1; n <= moves; n++) {
                            Thread.sleep(thinkMs);
                            int[] m = MatchSocketTest.firstLegal(state);
                            String body = "{\"moveNumber\": " + n + ", \"slot\": " + m[0] + ", \"row\": " + m[1]
                                    + ", \"col\": " + m[2] + "}";
                            sentAt.put(gameId + ":" + n, System.nanoTime());
                            HttpResponse<String> res = post(client, http + "/api/games/" + gameId + "/moves", token,
                                    body);
                            if (res.statusCode() != 200) {
                                errors.add(res.statusCode() + " " + res.body());
                                break;
                            }
                            state = JSON.readTree(res.body()).get("game");
                            if (!"PLAYING".equals(state.get("status").asText())) {
                                break;
                            }
                        }
                    } catch (Exception e) {
                        errors.add(e.toString());
                    } finally {
                        done.countDown();
                    }
                });
                player.start();
            }
        }
        done.await(30, TimeUnit.MINUTES);
        Thread.sleep(2000);
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("races %d (%d players), think %d ms: %d opponent updates, errors %d%n", races, races * 2,
                thinkMs, sorted.length, errors.size());
        MoveLoad.print(sorted);
        errors.stream().limit(5).forEach(e -> System.out.println("  error: " + e));
    }

    private static HttpResponse<String> post(HttpClient client, String url, String bearer, String body)
            throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + bearer).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(HttpClient client, String url, String bearer) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + bearer)
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
