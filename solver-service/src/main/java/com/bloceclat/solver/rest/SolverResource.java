package com.bloceclat.solver.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.common.rest.ServiceInfo;
import com.bloceclat.common.security.Caller;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

@Path("/api/solver")
@Produces(MediaType.APPLICATION_JSON)
public class SolverResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    ServiceInfo info;

    @GET
    @Path("/info")
    @Operation(summary = "Public: which service and version answers")
    public ServiceInfo info() {
        return info;
    }

    @GET
    @Path("/whoami")
    @Authenticated
    @Operation(summary = "The caller as this service sees the bearer token: subject, name and realm roles")
    public Caller whoami() {
        return Caller.of(identity);
    }
}
