package com.bloceclat.solver.client;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.oidc.client.filter.OidcClientFilter;

/**
 * One call to one solver-service replica, chosen by Stork, with the caller's service token. Use {@link SolverClient},
 * which adds the retry on another replica.
 */
@RegisterRestClient(configKey = "solver")
@RegisterProvider(SolverErrors.class)
@OidcClientFilter
@Path("/api/solver")
public interface SolverApi {

    @POST
    @Path("/solve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    ObjectNode solve(ObjectNode request);
}
