"""Broker URLs: what they parse to, and that a password never shows (repr, str, errors)."""

from __future__ import annotations

import pytest

from referee.hall.broker_url import PASSWORD_ENV, BrokerUrl, BrokerUrlError, parse_broker_url, redact
from referee.hall.topics import TopicError, Topics, check_prefix, check_table_name


@pytest.mark.parametrize(("text", "host", "port", "tls", "user", "password"), [
    ("mqtt://localhost", "localhost", 1883, False, None, None),
    ("mqtt://127.0.0.1:1884", "127.0.0.1", 1884, False, None, None),
    ("mqtts://broker.example.org", "broker.example.org", 8883, True, None, None),
    ("mqtt://ann:s3cret@hall:1883", "hall", 1883, False, "ann", "s3cret"),
    ("mqtts://ann:p%40ss%3Aword@hall:8884/", "hall", 8884, True, "ann", "p@ss:word"),
    ("MQTT://[::1]:1883", "::1", 1883, False, None, None),
])
def test_a_broker_url_parses(text: str, host: str, port: int, tls: bool, user: str | None,
                             password: str | None) -> None:
    url = parse_broker_url(text, env={})
    assert (url.host, url.port, url.tls, url.username, url.password) == (host, port, tls, user, password)


@pytest.mark.parametrize(("text", "says"), [
    ("http://hall:1883", "use mqtt://HOST:PORT"),
    ("hall:1883", "use mqtt://HOST:PORT"),
    ("mqtt://", "no host"),
    ("mqtt://hall:port", "bad broker URL"),
    ("mqtt://hall:99999", "bad broker URL"),
    ("mqtt://hall/topic", "no path"),
    ("mqtt://hall?ca=/x.pem", "mqtts:// only"),
    ("mqtts://hall?verify=0", "unknown option 'verify'"),
])
def test_a_bad_broker_url_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(BrokerUrlError, match="bad broker URL") as caught:
        parse_broker_url(text, env={})
    assert says in str(caught.value)


def test_the_password_never_shows() -> None:
    url = parse_broker_url("mqtts://ann:hunter2@hall:8883", env={})
    for shown in (str(url), repr(url), url.redacted(), f"{url}"):
        assert "hunter2" not in shown
        assert "ann:***@hall:8883" in shown
    with pytest.raises(BrokerUrlError) as caught:
        parse_broker_url("mqtt://ann:hunter2@hall:notaport", env={})
    assert "hunter2" not in str(caught.value) and "ann:***@" in str(caught.value)
    assert redact("cannot reach mqtt://ann:hunter2@hall:1883 now") == "cannot reach mqtt://ann:***@hall:1883 now"


def test_the_password_can_come_from_the_environment() -> None:
    url = parse_broker_url("mqtt://ann@hall", env={PASSWORD_ENV: "from-env"})
    assert url.password == "from-env"
    assert "from-env" not in repr(url)
    assert parse_broker_url("mqtt://ann@hall", env={}).password is None


def test_tls_options() -> None:
    url = parse_broker_url("mqtts://hall?ca=/etc/hall-ca.pem&insecure=1", env={})
    assert url == BrokerUrl("hall", 8883, tls=True, ca_file="/etc/hall-ca.pem", insecure=True)


@pytest.mark.parametrize("name", ["A", "table-12", "club_night.3"])
def test_table_names_that_work(name: str) -> None:
    assert check_table_name(name) == name
    assert Topics("uno").parse(Topics("uno").of(name, "events")) == (name, "events")


@pytest.mark.parametrize("name", ["", "a/b", "a+", "#", "x" * 41, "-a", "a b"])
def test_table_names_that_do_not(name: str) -> None:
    with pytest.raises(TopicError):
        check_table_name(name)


def test_prefixes() -> None:
    assert check_prefix("club/2026") == "club/2026"
    for bad in ("", "a//b", "a/+", "#", "/a"):
        with pytest.raises(TopicError):
            check_prefix(bad)
    assert Topics("club/2026").parse("club/2026/A/state") == ("A", "state")
    assert Topics("club/2026").parse("uno/A/state") is None
