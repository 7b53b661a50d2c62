package com.bloceclat.common.rest;

import java.util.Collection;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * What a request body Jackson could not read gets as a problem's detail ({@link ProblemMappers}): by field, without
 * Jackson's own words, which name the server's classes. A body that is not JSON, a field the body does not have, a
 * value of the wrong kind, a body that is not one object. A pure function, tested alone.
 */
public final class BodyErrors {

    private BodyErrors() {
    }

    public static String detail(JsonProcessingException json) {
        if (json instanceof UnrecognizedPropertyException unknown) {
            return "Unknown field \"" + shortened(unknown.getPropertyName()) + "\"" + known(unknown.getKnownPropertyIds());
        }
        if (json instanceof MismatchedInputException mismatched) {
            if (mismatched.getPath().isEmpty() || mismatched.getTargetType() == null) {
                // the body itself: an array, a number, a second value after the object (Jackson's words name classes)
                return "Malformed JSON: the body must be one JSON object";
            }
            return "Field \"" + shortened(field(mismatched)) + "\" " + expected(mismatched.getTargetType());
        }
        return "Malformed JSON: " + json.getOriginalMessage(); // a parse error: about the text, never the classes
    }

    /** A name as the client sent it, cut at 64 characters: a problem is no place to echo back 50,000. */
    private static String shortened(String name) {
        return name == null || name.length() <= 64 ? name : name.substring(0, 64) + "…";
    }

    private static String known(Collection<Object> ids) {
        return ids == null || ids.isEmpty() ? ""
                : ": the body takes " + ids.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }

    private static String field(MismatchedInputException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String expected(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class) {
            return "must be a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "must be true or false";
        }
        if (type == String.class) {
            return "must be text";
        }
        return "has the wrong kind of value";
    }
}
