package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The endpoint on Spring MVC with {@code management.server.port}: actuator on its own
 * Tomcat, in a child context. Tomcat is told to take unencoded brackets in query strings,
 * which its management server honours too.
 */
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"management.server.port=0", "management.server.address=127.0.0.1",
				"server.tomcat.relaxed-query-chars=[,]", "management.endpoints.web.exposure.include=prometheus",
				"rich.bulk-series=5000" })
class WebMvcManagementPortScrapeHttpTests extends AbstractManagementPortScrapeHttpTests {

}
