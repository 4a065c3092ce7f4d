/**
 * What the endpoint operation cannot see, per web stack: the {@code Accept} header with
 * its q-values, the {@code name[]} parameter, the content coding chosen from
 * {@code Accept-Encoding}, the scrape timeout header handed to {@code serve}, and a body
 * written without copying it. Headers in, bytes out.
 * <p>
 * Imports {@code endpoint}, {@code serve} and {@code exposition}; never
 * {@code autoconfigure} or {@code recording}.
 */
@NullMarked
package io.github.leanscrape.web;

import org.jspecify.annotations.NullMarked;
