package com.bloceclat.common.rest;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

import io.quarkus.jackson.ObjectMapperCustomizer;

/**
 * Every service reads request bodies as strictly as game-service's socket frames and the solver's protocol: a field
 * the body type does not have, a fraction or a quoted number where a whole number goes, a number or a string where
 * true or false goes, a number where text goes, or anything after the object, is a 400 naming the field
 * ({@link BodyErrors}). Jackson's defaults, which Quarkus keeps, played
 * {@code {"moveNumber":1.9,"slot":-0.5,"row":"6","col":6.99}} as move 1 at slot 0, (6, 6) (the fraction cut before
 * {@code @Min} saw it), started a server-seeded game for {@code {"level":"HARD","dialy":true}}, seed 1 for
 * {@code "seed":1.5}, and took {@code {"reason": 5}} as an admin's strike reason "5". Only reading changes: answers
 * are written as before.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper);
    }

    /** Makes {@code mapper} read as strictly as above; returns it. */
    public static ObjectMapper apply(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        refuse(mapper, LogicalType.Integer, CoercionInputShape.String, CoercionInputShape.Float,
                CoercionInputShape.Boolean, CoercionInputShape.EmptyString);
        refuse(mapper, LogicalType.Boolean, CoercionInputShape.String, CoercionInputShape.Integer,
                CoercionInputShape.Float, CoercionInputShape.EmptyString);
        refuse(mapper, LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean);
        return mapper;
    }

    private static void refuse(ObjectMapper mapper, LogicalType type, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
        }
    }
}
