package io.github.leanscrape.web;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

class FormatNegotiatorTests {

	private static final String PROTOBUF = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

	@Test
	void noHeaderGivesText() {
		assertThat(FormatNegotiator.negotiate(null).format()).isEqualTo(PrometheusOutputFormat.CONTENT_TYPE_004);
		assertThat(FormatNegotiator.negotiate(List.of()).format()).isEqualTo(PrometheusOutputFormat.CONTENT_TYPE_004);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					*/*                                                                  | CONTENT_TYPE_004
					text/plain                                                           | CONTENT_TYPE_004
					text/*                                                               | CONTENT_TYPE_004
					application/*                                                        | CONTENT_TYPE_PROTOBUF
					application/openmetrics-text                                         | CONTENT_TYPE_OPENMETRICS_100
					application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1 | CONTENT_TYPE_OPENMETRICS_100
					PROTOBUF;q=0.1, text/plain;q=0.9                                     | CONTENT_TYPE_004
					PROTOBUF,application/openmetrics-text;version=1.0.0;q=0.8,text/plain;version=0.0.4;q=0.2,*/*;q=0.1 | CONTENT_TYPE_PROTOBUF
					text/plain;q=0.5, application/openmetrics-text;q=0.5                 | CONTENT_TYPE_OPENMETRICS_100
					text/plain;q=0, */*                                                  | CONTENT_TYPE_OPENMETRICS_100
					application/json, */*;q=0.2                                          | CONTENT_TYPE_004
					TEXT/PLAIN;Q=0.3, application/openmetrics-text;q=0.2                 | CONTENT_TYPE_004
					application/openmetrics-text;version=0.0.1, text/plain               | CONTENT_TYPE_OPENMETRICS_100
					*/*;version=2                                                        | CONTENT_TYPE_004
					""")
	void choosesByQualityThenSpringBootsPreference(String accept, PrometheusOutputFormat expected) {
		assertThat(FormatNegotiator.negotiate(List.of(accept.replace("PROTOBUF", PROTOBUF))).format())
			.isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			application/json
			text/html;q=1, text/plain;q=0
			*/*;q=0
			application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text
			application/openmetrics-text;version=0.0.1
			text/plain;version=0.0.5, text/*;charset=iso-8859-1
			""")
	void nothingAcceptable(String accept) {
		FormatNegotiator.Result result = FormatNegotiator.negotiate(List.of(accept));
		assertThat(result.format()).isNull();
		assertThat(result.notAcceptable()).isTrue();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			text/plain;q=abc
			text/plain;q=2
			not a media type
			text/
			""")
	void malformedIsLeftToSpring(String accept) {
		FormatNegotiator.Result result = FormatNegotiator.negotiate(List.of(accept));
		assertThat(result.format()).isNull();
		assertThat(result.parsed()).isFalse();
	}

	@Test
	void severalHeaderValuesCount() {
		assertThat(FormatNegotiator.negotiate(List.of("text/plain;q=0.2", "application/openmetrics-text")).format())
			.isEqualTo(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100);
	}

}
