package com.bloceclat.engine;

/** A move the rules do not allow; the message says why in words a player understands. */
public class IllegalMoveException extends RuntimeException {
    public IllegalMoveException(String message) {
        super(message);
    }
}
