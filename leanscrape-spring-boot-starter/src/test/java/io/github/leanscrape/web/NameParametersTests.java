package io.github.leanscrape.web;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NameParameters}.
 */
class NameParametersTests {

	@Test
	void namesAloneAreTheIncludedNames() {
		assertThat(NameParameters.includedNames(null, List.of("a", "b", "a"))).containsExactly("a", "b");
	}

	@Test
	void oneIncludedNamesValueIsACommaSeparatedListAsInSpringBoot() {
		assertThat(NameParameters.includedNames(List.of(" a , b,"), List.of("c"))).containsExactly("a", "b", "", "c");
		assertThat(NameParameters.includedNames(List.of(""), List.of("c"))).containsExactly("c");
	}

	@Test
	void severalIncludedNamesValuesAreNamesEach() {
		assertThat(NameParameters.includedNames(List.of("a,b", "c"), List.of("c", "d"))).containsExactly("a,b", "c",
				"d");
	}

	@Test
	void rewriteKeepsOtherParametersAsSent() {
		assertThat(NameParameters.rewriteQuery("x=%5B1%5D&name[]=a&&name%5b%5D=b+c&includedNames=d&y",
				List.of("d", "a", "b c")))
			.isEqualTo("x=%5B1%5D&y&includedNames=d&includedNames=a&includedNames=b+c");
	}

	@Test
	void rewriteWithoutQueryOrNames() {
		assertThat(NameParameters.rewriteQuery(null, List.of("a_b:c"))).isEqualTo("includedNames=a_b%3Ac");
		assertThat(NameParameters.rewriteQuery("name[]=", List.of())).isEqualTo("includedNames=");
	}

	@Test
	void malformedEscapesAreKept() {
		assertThat(NameParameters.rewriteQuery("%zz=1&name[]=a", List.of("a"))).isEqualTo("%zz=1&includedNames=a");
	}

}
