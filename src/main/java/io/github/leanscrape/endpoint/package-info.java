/**
 * The {@code prometheus} actuator endpoint that replaces Spring Boot's, and the choice of
 * format for a request.
 */
@NullMarked
package io.github.leanscrape.endpoint;

import org.jspecify.annotations.NullMarked;
