package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.WithAndWithoutStarter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter answers an {@code Accept} header as Spring Boot's own endpoint does, where
 * no reason a user would want says otherwise: the same application with the starter and
 * without it ({@code leanscrape.enabled=false}), on Tomcat and on Reactor Netty, get the
 * same headers over HTTP and must give the same status and, when they answer, the same
 * {@code Content-Type}. The differences that remain (q-values, {@code q=0}) are in
 * docs/bad-input.md and tested elsewhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnswersLikeSpringBootHttpTests {

	private final List<WithAndWithoutStarter> applications = new ArrayList<>();

	private final List<Server> servers = new ArrayList<>();

	@BeforeAll
	void start() {
		for (String stack : List.of("servlet", "reactive")) {
			WithAndWithoutStarter applications = WithAndWithoutStarter.start(stack);
			this.applications.add(applications);
			this.servers.add(new Server(stack, new HttpScraper(applications.leanscrapePort()),
					new HttpScraper(applications.springBootPort())));
		}
	}

	@AfterAll
	void stop() {
		this.applications.forEach(WithAndWithoutStarter::close);
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text",
			"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
			"application/vnd.google.protobuf;proto=other;encoding=delimited", "application/vnd.google.protobuf",
			"application/openmetrics-text;version=0.0.1", "application/openmetrics-text;version=1.0.0",
			"application/openmetrics-text", "application/openmetrics-text;version=1.0.0;charset=iso-8859-1",
			"text/plain;version=0.0.4", "text/plain;version=0.0.5", "text/plain;charset=utf-8",
			"text/plain;version=0.0.4;escaping=underscores", "application/openmetrics-text;version=0.0.1,text/plain",
			"application/vnd.google.protobuf;encoding=text,application/openmetrics-text;version=1.0.0",
			"text/*;version=0.0.5", "*/*;version=2", "application/*" })
	void acceptGetsTheStatusAndContentTypeSpringBootGives(String accept) {
		for (Server server : this.servers) {
			HttpResponse<byte[]> leanscrape = server.leanscrape.get("/actuator/prometheus", "Accept", accept);
			HttpResponse<byte[]> boot = server.boot.get("/actuator/prometheus", "Accept", accept);
			assertThat(leanscrape.statusCode()).as(server.stack + ", Accept: " + accept).isEqualTo(boot.statusCode());
			if (boot.statusCode() == 200) {
				assertThat(leanscrape.headers().firstValue("Content-Type")).as(server.stack + ", Accept: " + accept)
					.isEqualTo(boot.headers().firstValue("Content-Type"));
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "bytes=0-9", "bytes=0-9,20-29", "bytes=-10", "bytes=5-", "bytes=abc", "items=0-9" })
	void rangeGetsWhatSpringBootGives(String range) {
		for (Server server : this.servers) {
			HttpResponse<byte[]> leanscrape = server.leanscrape.get("/actuator/prometheus", "Range", range);
			HttpResponse<byte[]> boot = server.boot.get("/actuator/prometheus", "Range", range);
			assertThat(leanscrape.statusCode()).as(server.stack + ", Range: " + range).isEqualTo(boot.statusCode());
			assertThat(leanscrape.body()).as(server.stack + ", Range: " + range).isEqualTo(boot.body());
		}
	}

	private record Server(String stack, HttpScraper leanscrape, HttpScraper boot) {

	}

}
