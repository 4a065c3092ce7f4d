/**
 * The servlet stack's glue: format negotiation filter and body converter.
 */
@NullMarked
package io.github.leanscrape.web.servlet;

import org.jspecify.annotations.NullMarked;
