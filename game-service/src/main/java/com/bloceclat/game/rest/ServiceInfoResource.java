package com.bloceclat.game.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import com.bloceclat.common.rest.ServiceInfo;

@Path("/api/games/info")
@Produces(MediaType.APPLICATION_JSON)
public class ServiceInfoResource {

    @Inject
    ServiceInfo info;

    @GET
    @Operation(summary = "Public: which service and version answers")
    public ServiceInfo info() {
        return info;
    }
}
