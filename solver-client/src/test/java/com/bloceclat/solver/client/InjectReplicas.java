package com.bloceclat.solver.client;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks the test field that receives the {@link SolverReplicas.Replica}s. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface InjectReplicas {
}
