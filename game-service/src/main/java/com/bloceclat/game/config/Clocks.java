package com.bloceclat.game.config;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.arc.DefaultBean;

/**
 * The clock of the rules that go by the calendar (the daily challenge's day): the system's, in UTC. A default bean,
 * so that tests put a clock they drive in its place (a bean of type {@link Clock} of their own) instead of sleeping.
 */
@Singleton
public class Clocks {

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }
}
