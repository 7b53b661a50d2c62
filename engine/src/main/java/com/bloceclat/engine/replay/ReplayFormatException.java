package com.bloceclat.engine.replay;

/** A replay that cannot even be read. */
public class ReplayFormatException extends RuntimeException {
    public ReplayFormatException(String message) {
        super(message);
    }
}
