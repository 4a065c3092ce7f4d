/**
 * Auto-configuration of the leanscrape starter and its {@code leanscrape.*} properties:
 * wires {@code web}, {@code endpoint}, {@code metrics}, {@code serve},
 * {@code compression}, {@code exposition} and {@code recording}. Nothing imports it.
 */
@NullMarked
package io.github.leanscrape.autoconfigure;

import org.jspecify.annotations.NullMarked;
