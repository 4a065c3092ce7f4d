/**
 * The reactive stack's glue: format negotiation web filter and body writer.
 */
@NullMarked
package io.github.leanscrape.web.reactive;

import org.jspecify.annotations.NullMarked;
