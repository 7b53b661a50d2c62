package com.bloceclat.common.events;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * A {@value GameFinished#CHANNEL} message that could not be read, as published on {@value #CHANNEL} with the
 * original key (docs/events.md): where it came from, the original value verbatim, why it was refused, and when.
 */
@JsonPropertyOrder({"schemaVersion", "topic", "partition", "offset", "key", "payload", "error", "failedAt"})
public record GameFinishedDeadLetter(int schemaVersion, String topic, int partition, long offset, String key,
        String payload, String error, Instant failedAt) {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "game-finished-dlq";

    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static GameFinishedDeadLetter fromJson(String json) {
        try {
            return MAPPER.readValue(json, GameFinishedDeadLetter.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a dead letter: " + e.getOriginalMessage(), e);
        }
    }
}
