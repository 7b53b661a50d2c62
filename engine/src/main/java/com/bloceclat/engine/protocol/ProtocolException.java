package com.bloceclat.engine.protocol;

/** A malformed solver request; the message goes back to the caller as is. */
public class ProtocolException extends RuntimeException {
    public ProtocolException(String message) {
        super(message);
    }
}
