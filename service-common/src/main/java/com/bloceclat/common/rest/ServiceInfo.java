package com.bloceclat.common.rest;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/** What a service says about itself on its public info endpoint. */
public record ServiceInfo(String service, String version) {

    @Singleton
    static class Producer {

        @Produces
        @Singleton
        ServiceInfo serviceInfo(@ConfigProperty(name = "quarkus.application.name") String name,
                @ConfigProperty(name = "quarkus.application.version") String version) {
            return new ServiceInfo(name, version);
        }
    }
}
