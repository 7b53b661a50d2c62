package com.bloceclat.testsupport;

import static io.restassured.RestAssured.given;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A small fuzzer driven by a service's own OpenAPI document ({@code /q/openapi?format=json} of the running test
 * application): for every path × method it sends {@code casesPerOperation} generated requests and reports every
 * answer of 500 or more that is not documented backpressure (503 with {@code Retry-After}), and every 4xx without a
 * problem body (but the bearer challenge of a call without a token, 401 with {@code WWW-Authenticate} and no body,
 * and the HTTP server's bare 414 and 431 for a request line or headers past its limits, before any route).
 *
 * <p>Each request combines, drawn from one {@link Random} with a fixed seed (the same run every time):
 * <ul>
 * <li>a path value per path parameter: a known good value when the test gives one ({@link #pathValue}), a random
 * UUID, or an odd one (not a UUID, empty-ish, huge, unicode, {@code ..}, percent-encoded NUL, negative
 * numbers);</li>
 * <li>query values per declared query parameter: absent, empty, huge, wrong-typed, odd dates, NUL;</li>
 * <li>a body (for operations that declare one, and sometimes for those that do not): missing, empty,
 * {@code null}, not JSON, deeply nested, a JSON value of the wrong type, an object generated from the schema
 * (valid-looking) and then one property broken (wrong type, NUL in a string, a huge string, an extreme number, an
 * unknown enum value, null);</li>
 * <li>headers: the content type (JSON, none, text, XML, garbage), {@code Authorization} (none, each token the test
 * gives, garbage, an empty bearer, Basic), every declared header parameter (such as {@code X-Game-Token}) with a
 * known good value or garbage.</li>
 * </ul>
 * Half the requests are focused: one query parameter odd and every other value good (a known path value, a valid
 * token, known header values), so that the odd value reaches the code behind the other checks. Requests are bounded
 * in number and sent one at a time; a request the HTTP client itself refuses to send is skipped (counted).
 */
public final class OpenApiFuzzer {

    /** One request sent and what came back. */
    public record Case(String operation, String method, String path, Map<String, String> headers, String body,
            int status, String answer) {

        @Override
        public String toString() {
            String b = body == null ? "(no body)" : abbreviate(body, 300);
            return operation + " -> " + status + "\n    " + method + " " + abbreviate(path, 300) + "\n    headers "
                    + headers + "\n    body " + b + "\n    answer " + abbreviate(answer, 500);
        }
    }

    /** What a run found. */
    public record Report(int operations, int sent, int skipped, List<Case> failures, List<Case> known,
            Map<String, Map<Integer, Integer>> statuses) {

        public String summary() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "%d operations, %d requests sent, %d not sendable by the client, %d 5xx (%d of them known)%n",
                    operations, sent, skipped, failures.size() + known.size(), known.size()));
            statuses.forEach((operation, counts) -> out.append("  ").append(operation).append(": ").append(counts)
                    .append('\n'));
            failures.forEach(c -> out.append(c).append('\n'));
            known.forEach(c -> out.append("known: ").append(c).append('\n'));
            return out.toString();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern PARAM = Pattern.compile("\\{([^}/]+)}");
    private static final String HUGE = "x".repeat(70_000);

    private long seed = 20261201L;
    private int casesPerOperation = 40;
    private final List<Supplier<String>> tokens = new ArrayList<>();
    private final Map<String, List<Supplier<String>>> pathValues = new LinkedHashMap<>();
    private final Map<String, List<Supplier<String>>> headerValues = new LinkedHashMap<>();
    private final List<Known> known = new ArrayList<>();
    private final List<String> skippedPaths = new ArrayList<>();

    public OpenApiFuzzer seed(long seed) {
        this.seed = seed;
        return this;
    }

    public OpenApiFuzzer casesPerOperation(int n) {
        this.casesPerOperation = n;
        return this;
    }

    /** A valid bearer token to try beside none and garbage (asked for each time it is used: tokens expire). */
    public OpenApiFuzzer token(Supplier<String> token) {
        tokens.add(token);
        return this;
    }

    /** A known good value for the path parameter {@code name} (an existing game's id, for example). */
    public OpenApiFuzzer pathValue(String name, Supplier<String> value) {
        pathValues.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        return this;
    }

    /** A known good value for the header {@code name} (a game token, for example). */
    public OpenApiFuzzer headerValue(String name, Supplier<String> value) {
        headerValues.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(value);
        return this;
    }

    /**
     * Marks a known bug owned elsewhere: a 5xx of {@code operation} ({@code "GET /api/leaderboards/admin/audits"})
     * whose request (URL with its query, or body) contains {@code inRequest} is reported apart and does not fail the
     * run; any other 5xx still does. Remove the entry once the bug is fixed.
     */
    public OpenApiFuzzer knownFailure(String operation, String inRequest, String bug) {
        known.add(new Known(operation, inRequest, bug));
        return this;
    }

    private record Known(String operation, String inRequest, String bug) {
        boolean matches(Case c) {
            return c.operation().equals(operation) && (c.path().contains(inRequest)
                    || (c.body() != null && c.body().contains(inRequest)));
        }
    }

    /** Paths starting with {@code prefix} are not fuzzed. */
    public OpenApiFuzzer skipPath(String prefix) {
        skippedPaths.add(prefix);
        return this;
    }

    /** Fetches the document from the application RestAssured points at and fuzzes every operation. */
    public Report run() {
        String text = given().accept("application/json").when().get("/q/openapi?format=json").then().statusCode(200)
                .extract().asString();
        JsonNode document;
        try {
            document = JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the OpenAPI document is not JSON", e);
        }
        return run(document);
    }

    Report run(JsonNode document) {
        Random random = new Random(seed);
        List<Case> failures = new ArrayList<>();
        List<Case> knownFailures = new ArrayList<>();
        Map<String, Map<Integer, Integer>> statuses = new LinkedHashMap<>();
        int operations = 0;
        int sent = 0;
        int skipped = 0;
        Map<String, JsonNode> paths = new TreeMap<>();
        document.path("paths").fields().forEachRemaining(e -> paths.put(e.getKey(), e.getValue()));
        for (Map.Entry<String, JsonNode> path : paths.entrySet()) {
            if (skippedPaths.stream().anyMatch(path.getKey()::startsWith)) {
                continue;
            }
            Map<String, JsonNode> methods = new TreeMap<>();
            path.getValue().fields().forEachRemaining(e -> methods.put(e.getKey(), e.getValue()));
            for (Map.Entry<String, JsonNode> method : methods.entrySet()) {
                if (!List.of("get", "post", "put", "delete", "patch").contains(method.getKey())) {
                    continue;
                }
                operations++;
                String operation = method.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
                List<JsonNode> parameters = new ArrayList<>();
                path.getValue().path("parameters").forEach(parameters::add);
                method.getValue().path("parameters").forEach(parameters::add);
                JsonNode bodySchema = bodySchema(document, method.getValue());
                for (int i = 0; i < casesPerOperation; i++) {
                    Request request = generate(document, random, path.getKey(), parameters, bodySchema);
                    Response response;
                    try {
                        response = request.send(method.getKey());
                    } catch (Exception e) { // RestAssured also throws the HTTP client's checked exceptions
                        skipped++;
                        continue;
                    }
                    sent++;
                    int status = response.statusCode();
                    statuses.computeIfAbsent(operation, o -> new TreeMap<>()).merge(status, 1, Integer::sum);
                    if (status >= 500 && !(status == 503 && response.header("Retry-After") != null)
                            || status >= 400 && status < 500 && !problemOrChallenge(response)) {
                        Case c = new Case(operation, method.getKey().toUpperCase(Locale.ROOT), request.url,
                                request.headers, request.body, status, response.asString());
                        (known.stream().anyMatch(k -> k.matches(c)) ? knownFailures : failures).add(c);
                    }
                }
            }
        }
        return new Report(operations, sent, skipped, failures, knownFailures, statuses);
    }

    /**
     * Whether a 4xx says what is wrong as the services promise: an {@code application/problem+json} body, or the
     * standard bearer challenge of a call without a token (401 with {@code WWW-Authenticate}, no body).
     */
    private static boolean problemOrChallenge(Response response) {
        if (response.statusCode() == 414 || response.statusCode() == 431) {
            return true; // the HTTP server's own, before any route: a request line or headers past its limits
        }
        String type = response.contentType();
        if (type != null && type.startsWith("application/problem+json")) {
            return true;
        }
        return response.statusCode() == 401 && response.header("WWW-Authenticate") != null
                && response.asString().isEmpty();
    }

    /** The request body's schema (with $refs resolved at the top), or null when the operation has none. */
    private static JsonNode bodySchema(JsonNode document, JsonNode operation) {
        JsonNode content = operation.path("requestBody").path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            return null;
        }
        JsonNode media = content.has("application/json") ? content.get("application/json") : content.elements().next();
        return resolve(document, media.path("schema"));
    }

    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        for (int depth = 0; depth < 10 && schema.has("$ref"); depth++) {
            String ref = schema.get("$ref").asText();
            if (!ref.startsWith("#/")) {
                return NODES.objectNode();
            }
            JsonNode target = document;
            for (String part : ref.substring(2).split("/")) {
                target = target.path(part);
            }
            schema = target;
        }
        return schema;
    }

    private final class Request {
        String url;
        final Map<String, String> headers = new LinkedHashMap<>();
        final Map<String, String> query = new LinkedHashMap<>();
        String body;

        Response send(String method) {
            RequestSpecification spec = given().config(RestAssuredConfig.config().encoderConfig(EncoderConfig
                    .encoderConfig().appendDefaultContentCharsetToContentTypeIfUndefined(false)))
                    .urlEncodingEnabled(false);
            headers.forEach(spec::header);
            if (body != null) {
                spec.body(body.getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder full = new StringBuilder(url);
            char sep = '?';
            for (Map.Entry<String, String> q : query.entrySet()) {
                full.append(sep).append(encode(q.getKey())).append('=').append(encode(q.getValue()));
                sep = '&';
            }
            url = full.toString();
            return spec.when().request(method.toUpperCase(Locale.ROOT), url).andReturn();
        }
    }

    private Request generate(JsonNode document, Random random, String template, List<JsonNode> parameters,
            JsonNode bodySchema) {
        Request request = new Request();
        // Half the cases are focused: one query parameter odd, every other value good (known path values, a valid
        // token), so that the odd value gets past the other checks; the rest draw every value at random.
        boolean focused = random.nextBoolean();
        List<JsonNode> queries = parameters.stream().filter(p -> p.path("in").asText().equals("query")).toList();
        JsonNode target = focused && !queries.isEmpty() ? queries.get(random.nextInt(queries.size())) : null;
        Matcher m = PARAM.matcher(template);
        StringBuilder url = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = focused && pathValues.containsKey(name)
                    ? encode(pathValues.get(name).get(random.nextInt(pathValues.get(name).size())).get())
                    : pathValue(random, name);
            m.appendReplacement(url, Matcher.quoteReplacement(value));
        }
        m.appendTail(url);
        request.url = url.toString();

        for (JsonNode parameter : parameters) {
            String name = parameter.path("name").asText();
            String in = parameter.path("in").asText();
            if (in.equals("query") && (focused ? parameter == target : random.nextInt(4) != 0)) {
                request.query.put(name, oddValue(random, resolve(document, parameter.path("schema"))));
            } else if (in.equals("header") && focused && headerValues.containsKey(name.toLowerCase(Locale.ROOT))) {
                List<Supplier<String>> good = headerValues.get(name.toLowerCase(Locale.ROOT));
                request.headers.put(name, good.get(random.nextInt(good.size())).get());
            } else if (in.equals("header") && random.nextInt(3) != 0) {
                request.headers.put(name, headerValue(random, name));
            }
        }
        String authorization = focused && !tokens.isEmpty()
                ? "Bearer " + tokens.get(random.nextInt(tokens.size())).get()
                : authorization(random);
        if (authorization != null) {
            request.headers.put("Authorization", authorization);
        }
        if (bodySchema != null || random.nextInt(8) == 0) {
            request.body = body(document, random, bodySchema == null ? NODES.objectNode() : bodySchema);
        }
        String contentType = contentType(random, request.body != null);
        if (contentType != null) {
            request.headers.put("Content-Type", contentType);
        }
        return request;
    }

    private String pathValue(Random random, String name) {
        List<Supplier<String>> good = pathValues.getOrDefault(name, List.of());
        int pick = random.nextInt(good.isEmpty() ? 12 : 16);
        if (pick >= 12) {
            return encode(good.get(random.nextInt(good.size())).get());
        }
        return switch (pick) {
            case 0, 1 -> uuid(random);
            case 2 -> "not-a-uuid";
            case 3 -> encode("x".repeat(2000 + random.nextInt(2000)));
            case 4 -> encode("é😀\u202Eабв");
            case 5 -> "..";
            case 6 -> "%00";
            case 7 -> "-1";
            case 8 -> "99999999999999999999999";
            case 9 -> encode("' OR 1=1 --");
            case 10 -> encode(uuid(random).toUpperCase(Locale.ROOT) + "\u0000");
            default -> "%2e%2e%2f%2e%2e";
        };
    }

    /** An odd query value; dates and instants out of what a database stores are among them. */
    private static String oddValue(Random random, JsonNode schema) {
        return switch (random.nextInt(15)) {
            case 0 -> "";
            case 14 -> "+300000-01-01T00:00:00Z";
            case 1 -> "-1";
            case 2 -> "0";
            case 3 -> "2147483648";
            case 4 -> "99999999999999999999999999";
            case 5 -> "abc";
            case 6 -> "2026-13-45";
            case 7 -> "0001-01-01T00:00:00Z";
            case 8 -> "99999-12-31";
            case 9 -> "a\u0000b";
            case 10 -> "x".repeat(5000);
            case 11 -> "é😀";
            case 12 -> schema.has("enum") ? schema.get("enum").get(random.nextInt(schema.get("enum").size())).asText()
                    : "true";
            default -> "1e309";
        };
    }

    private String headerValue(Random random, String name) {
        List<Supplier<String>> good = headerValues.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        int pick = random.nextInt(good.isEmpty() ? 6 : 9);
        if (pick >= 6) {
            return good.get(random.nextInt(good.size())).get();
        }
        return switch (pick) {
            case 0 -> "";
            case 1 -> "garbage";
            case 2 -> uuid(random);
            case 3 -> "x".repeat(4000);
            case 4 -> "é😀";
            default -> "null";
        };
    }

    private String authorization(Random random) {
        int pick = random.nextInt(6 + 2 * tokens.size());
        if (pick >= 6) {
            return "Bearer " + tokens.get((pick - 6) / 2).get();
        }
        return switch (pick) {
            case 0, 1 -> null;
            case 2 -> "Bearer garbage";
            case 3 -> "Bearer ";
            case 4 -> "Basic " + java.util.Base64.getEncoder().encodeToString("admin:admin".getBytes());
            default -> "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.";
        };
    }

    private static String contentType(Random random, boolean hasBody) {
        int pick = random.nextInt(10);
        if (pick < (hasBody ? 6 : 3)) {
            return "application/json";
        }
        return switch (pick) {
            case 6 -> null;
            case 7 -> "text/plain";
            case 8 -> "application/xml";
            case 9 -> "garbage/;;charset=nope";
            default -> "application/json; charset=latin-1";
        };
    }

    private static String body(JsonNode document, Random random, JsonNode schema) {
        return switch (random.nextInt(12)) {
            case 0 -> "";
            case 1 -> "null";
            case 2 -> "{";
            case 3 -> "[".repeat(5000) + "]".repeat(5000);
            case 4 -> "\"" + HUGE + "\"";
            case 5 -> "{\"a\":\"\u0000\"}";
            case 6 -> "[1,2,3]";
            default -> broken(document, random, generate(document, random, schema, 0)).toString();
        };
    }

    /** A value shaped by the schema (valid-looking). */
    private static JsonNode generate(JsonNode document, Random random, JsonNode schema, int depth) {
        schema = resolve(document, schema);
        if (schema.has("enum") && schema.get("enum").size() > 0) {
            return schema.get("enum").get(random.nextInt(schema.get("enum").size()));
        }
        if (depth > 5) {
            return NODES.nullNode();
        }
        String type = schema.path("type").asText("object");
        return switch (type) {
            case "integer" -> NODES.numberNode(random.nextInt(10));
            case "number" -> NODES.numberNode(random.nextDouble() * 10);
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "string" -> NODES.textNode(string(random, schema));
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(generate(document, random, schema.path("items"), depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> p = it.next();
                    if (random.nextInt(5) != 0) {
                        object.set(p.getKey(), generate(document, random, p.getValue(), depth + 1));
                    }
                }
                yield object;
            }
        };
    }

    private static String string(Random random, JsonNode schema) {
        String format = schema.path("format").asText("");
        return switch (format) {
            case "uuid" -> uuid(random);
            case "date" -> "2026-11-29";
            case "date-time" -> "2026-11-29T10:00:00Z";
            default -> "s" + random.nextInt(1000);
        };
    }

    /** The value with one thing broken: a property (or the value itself) wrong-typed or out of every bound. */
    private static JsonNode broken(JsonNode document, Random random, JsonNode value) {
        JsonNode bad = switch (random.nextInt(12)) {
            case 0 -> NODES.textNode("\u0000");
            case 1 -> NODES.textNode(HUGE);
            case 2 -> NODES.numberNode(new java.math.BigInteger("99999999999999999999999999999"));
            case 3 -> NODES.numberNode(-1);
            case 4 -> NODES.numberNode(1.5e308);
            case 5 -> NODES.nullNode();
            case 6 -> NODES.textNode("NOT_AN_ENUM_VALUE");
            case 7 -> NODES.arrayNode().add(1).add("two");
            case 8 -> NODES.objectNode().put("nested", "\u0000");
            case 9 -> NODES.booleanNode(true);
            // a decimal no BigDecimal holds (its exponent past an int's): a mapper reading exact decimals throws
            case 10 -> NODES.rawValueNode(new com.fasterxml.jackson.databind.util.RawValue("1e-2147483649"));
            default -> NODES.textNode("2026-02-30T25:61:00Z");
        };
        if (value instanceof ObjectNode object && object.size() > 0 && random.nextInt(4) != 0) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            object.set(names.get(random.nextInt(names.size())), bad);
            return object;
        }
        if (value instanceof ObjectNode object && random.nextBoolean()) {
            return object;
        }
        return random.nextInt(3) == 0 ? bad : value;
    }

    /** A UUID from the run's seed, so that a run can be repeated exactly. */
    private static String uuid(Random random) {
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String text, int max) {
        if (text == null) {
            return "";
        }
        return text.length() <= max ? text : text.substring(0, max) + "…(" + text.length() + " chars)";
    }
}
