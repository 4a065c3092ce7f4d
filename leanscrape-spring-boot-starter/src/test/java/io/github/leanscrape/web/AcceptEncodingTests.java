package io.github.leanscrape.web;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.support.OwnCodeTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Choosing a response's content coding from {@code Accept-Encoding} and what the starter
 * can send.
 */
@Tag(OwnCodeTests.TAG)
class AcceptEncodingTests {

	private static final Set<ContentCoding> BOTH = EnumSet.allOf(ContentCoding.class);

	private static final Set<ContentCoding> GZIP_ONLY = EnumSet.of(ContentCoding.GZIP);

	@ParameterizedTest
	@CsvSource(delimiterString = "->", nullValues = "NONE", textBlock = """
			gzip                           -> GZIP  -> GZIP
			x-gzip                         -> GZIP  -> GZIP
			zstd                           -> ZSTD  -> NONE
			zstd, gzip                     -> ZSTD  -> GZIP
			gzip;q=1.0, zstd;q=0.9         -> GZIP  -> GZIP
			gzip;q=0.1, zstd;q=0.9         -> ZSTD  -> GZIP
			zstd;q=0, gzip;q=0.2           -> GZIP  -> GZIP
			*                              -> GZIP  -> GZIP
			*;q=0.5, zstd;q=0.5            -> ZSTD  -> GZIP
			identity                       -> NONE  -> NONE
			gzip;q=0                       -> NONE  -> NONE
			gzip;q=0, *                    -> NONE  -> NONE
			zstd;q=0                       -> NONE  -> NONE
			gzip;q=abc, zstd;q=2           -> NONE  -> NONE
			br, deflate                    -> NONE  -> NONE
			' Zstd ;  Q=0.7 , GZIP;q=0.3'  -> ZSTD  -> GZIP
			""")
	void choosesTheAcceptedCodingOfHighestQuality(String header, @Nullable String withBoth,
			@Nullable String withGzipOnly) {
		assertThat(AcceptEncoding.choose(List.of(header), BOTH)).isEqualTo(coding(withBoth));
		assertThat(AcceptEncoding.choose(List.of(header), GZIP_ONLY)).isEqualTo(coding(withGzipOnly));
	}

	@Test
	void headerValuesAreReadTogether() {
		assertThat(AcceptEncoding.choose(List.of("gzip;q=0.5", "zstd"), BOTH)).isEqualTo(ContentCoding.ZSTD);
	}

	@Test
	void nothingIsChosenWithoutAHeaderOrWithoutEncoders() {
		assertThat(AcceptEncoding.choose(null, BOTH)).isNull();
		assertThat(AcceptEncoding.choose(List.of("gzip, zstd"), Set.of())).isNull();
	}

	private static @Nullable ContentCoding coding(@Nullable String name) {
		return (name != null) ? ContentCoding.valueOf(name) : null;
	}

}
