"""The Redis URLs of the settings (casino/redis_shards.py, casino/settings.py): lists that hold
Sentinel URLs, and URLs that cannot be used, refused with a message that names them without
their password."""

import pytest

from casino.redis_shards import endpoint
from casino.settings import urls_from


def test_a_list_keeps_each_sentinel_url_whole():
    assert urls_from(" redis://a:6379/0, sentinel://s1:26379,s2:26379/m/1 ,redis://b:6379/0,") == [
        "redis://a:6379/0",
        "sentinel://s1:26379,s2:26379/m/1",
        "redis://b:6379/0",
    ]
    assert urls_from("") == []


def test_a_plain_url_is_labelled_without_its_password():
    point = endpoint("redis://:secret@cache.internal:6380/4")
    assert (point.db, point.password, point.is_sentinel) == (4, "secret", False)
    assert point.label == "redis://cache.internal:6380/4" and "secret" not in point.label


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://:pw@host:6379/0", "must be redis://, rediss://, unix:// or sentinel://"),
        ("sentinel://:pw@host:26379", "names its master"),
        ("sentinel://:pw@host/casino", "a sentinel must be host:port"),
        ("sentinel://:pw@host:26379/casino/x", "/master_name[/db]"),
        ("sentinel://:pw@host:26379/casino/1/2", "/master_name[/db]"),
    ],
)
def test_an_unusable_url_is_refused_by_name_without_its_password(url, message):
    with pytest.raises(ValueError) as refused:
        endpoint(url)
    assert message in str(refused.value)
    assert ":pw@" not in str(refused.value)
