# -*- coding: utf-8 -*-
"""Demo corpus: single stories written to exercise geotagging.

Ambiguous place names resolved by context (Portland ME/OR, Springfield, London ON/UK,
Kingston ON/Jamaica, Paris TX/France, Richmond BC/VA, Victoria BC, Hamilton ON),
places outside the US and Canada that must not be tagged, and items naming no place.
Each entry is (publisher key, category, title, text). Read by generate.py. Fictional.
"""

PLACE_STORIES = [
    # Portland, Maine vs Portland, Oregon
    ("casco-bay-chronicle", "local", "Portland council approves protected bike lanes on Congress Street",
     "Portland city councilors voted 7-2 on Monday to build protected bike lanes along Congress Street from Longfellow Square to the Eastern Promenade.\n\n"
     "The project will remove about 40 parking spaces. Business owners in the Arts District asked for loading zones, and the council agreed to add four. Construction could begin in April if state transportation money comes through."),
    ("rose-city-rambler", "food", "Beloved Hawthorne food cart pod will close in January",
     "One of Portland's oldest food cart pods, on Southeast Hawthorne Boulevard, will close on January 15 after the lot was sold to a housing developer.\n\n"
     "Most of the 11 carts have found new spots in Southeast and North Portland. \"We started here with one grill and a folding table,\" said Phuong Delgado, who runs a noodle cart."),
    ("hudson-lantern", "lifestyle", "Why New Yorkers keep taking the bus to Portland, Maine",
     "Weekend bus tickets from Manhattan to Portland, Maine, have nearly doubled since last year, a regional bus company says, as New Yorkers look for a short trip to the coast.\n\n"
     "Travelers interviewed at the Port Authority said they were drawn by the Old Port's restaurants and the ferries across Casco Bay. The trip takes a little over six hours."),
    ("rose-city-rambler", "local", "Portland, Oregon, and Portland, Maine, swap mayors for a day",
     "In a stunt that began as a joke on social media, the mayors of Portland, Oregon, and Portland, Maine, will trade cities for one day next month.\n\n"
     "Oregon's Portland will send its mayor to ride a Casco Bay ferry, while Maine's will tour the Willamette River waterfront and try the food carts."),
    # Springfield
    ("lakefront-dispatch", "politics", "Lawmakers head to Springfield for a short veto session",
     "Illinois lawmakers return to Springfield on Tuesday for a three-day veto session, with a transit funding bill for the Chicago region at the top of the list.\n\n"
     "Suburban legislators want guarantees that Metra service to the collar counties will not be cut. The governor's office says a deal is close but not done."),
    ("harborlight-herald", "business", "Casino revenue slips in Springfield, Mass., for a third month",
     "Gaming revenue at the casino in Springfield, Massachusetts, fell for a third month in a row in October, state regulators reported Thursday.\n\n"
     "The drop comes as more visitors from Boston and Hartford choose a newer resort in Connecticut. Springfield officials said the city's share of taxes still covered the budget for school buses."),
    ("capitol-ledger", "politics", "Springfield, Missouri, wins a federal grant to rebuild a flood-prone road",
     "The Transportation Department awarded $18 million to Springfield, Mo., on Friday to raise a stretch of road that floods several times a year, one of 30 grants announced in Washington.\n\n"
     "The program was created by Congress three years ago. Other winners include towns in Oregon and Vermont."),
    # London, Ontario vs London, England
    ("don-valley-daily", "health", "London, Ont., hospital opens a children's mental-health wing",
     "A new 24-bed children's mental-health wing opened Thursday at a hospital in London, Ontario, two hours west of Toronto, easing a waiting list that has sent some families as far as Toronto.\n\n"
     "Staff said the wing will also offer day programs for teenagers from across southwestern Ontario."),
    ("halifax-tideline", "entertainment", "Halifax folk band lands a spring tour of London and Manchester",
     "Halifax folk quartet The Lantern Keepers will spend April touring England, with six shows in London and Manchester, the band announced Tuesday.\n\n"
     "The group recorded its latest album in a church hall in Lunenburg, Nova Scotia. A farewell show at home is set for March."),
    ("carillon-du-plateau", "entertainment", "Une illustratrice montréalaise exposée à Paris et à Londres",
     "L'illustratrice Clémence Aubertin, qui travaille depuis quinze ans dans un atelier du Mile End, présentera ses dessins à Paris en février, puis à Londres au printemps.\n\n"
     "Ses grandes planches à l'encre racontent la vie des ruelles de Montréal. « C'est drôle de montrer nos escaliers extérieurs à des Parisiens », dit-elle en riant."),
    # Kingston, Ontario vs Kingston, Jamaica
    ("rideau-record", "local", "Kingston penitentiary tours extended into the winter",
     "Guided tours of the former Kingston Penitentiary will run through the winter for the first time, Kingston tourism officials said Wednesday, after a record season drew more than 90,000 visitors.\n\n"
     "Many visitors make the two-hour drive from Ottawa. Winter tours will run on weekends only, with heated waiting areas by the main gate."),
    ("biscayne-tidewatch", "business", "New nonstop flights from Miami to Kingston, Jamaica, start in December",
     "A low-cost airline will begin daily nonstop flights from Miami International Airport to Kingston, Jamaica, on December 12, adding seats for the holiday season.\n\n"
     "Travel agents in North Miami, home to a large Jamaican community, said fares had been high since another carrier dropped the route last spring."),
    # Paris, Texas vs Paris, France
    ("bayou-city-beacon", "business", "Paris, Texas, plant to add 200 jobs making rail parts",
     "A manufacturer of rail car parts will expand its plant in Paris, Texas, adding 200 jobs over two years, the company and Lamar County officials said Monday.\n\n"
     "The company, based in Houston, chose Paris over sites in Oklahoma because of a trained workforce and a rail spur next to the plant."),
    ("palisade-post", "entertainment", "Los Angeles designer Noor Castellanos takes her collection to Paris",
     "Los Angeles designer Noor Castellanos will show her first full collection in Paris in March, a rare invitation for a studio that started in a garage in Boyle Heights.\n\n"
     "Her clothes use fabric left over from film and television costume shops. \"We are still an LA brand,\" she said. \"Paris is just a very good stage.\""),
    ("la-voz-del-valle", "lifestyle", "De Boyle Heights a París: la diseñadora que recicla telas de Hollywood",
     "La diseñadora angelina Noor Castellanos presentará su colección en París en marzo, una invitación poco común para un taller que comenzó en una cochera del este de Los Ángeles.\n\n"
     "Sus prendas usan telas sobrantes de los talleres de vestuario de cine y televisión."),
    # Richmond, BC vs Richmond, Virginia
    ("salish-harbour-times", "food", "Richmond night market returns with a record 300 vendors",
     "The Richmond night market will reopen for a winter season this weekend with a record 300 vendors, organizers said, a short SkyTrain ride south of downtown Vancouver.\n\n"
     "New this year are covered seating and a zone for vendors from Vancouver Island. Entry is free before 8 p.m."),
    ("capitol-ledger", "politics", "Richmond, Va., lawmakers push a bill on Washington-area tolls",
     "Virginia lawmakers in Richmond are drafting a bill that would cap toll rates on express lanes used by commuters to Washington, D.C., a delegate from Fairfax said Thursday.\n\n"
     "The toll operator warned that a cap could slow planned road work. The General Assembly meets in January."),
    # Victoria, BC and Hamilton, Ontario
    ("salish-harbour-times", "local", "Victoria harbour ferry adds a winter route to Esquimalt",
     "The small harbour ferries in Victoria will run a new winter route to Esquimalt starting next month, the operator said, giving commuters an alternative to a crowded bridge.\n\n"
     "Boats will leave every 30 minutes during the morning and evening rush. Fares stay at $8."),
    ("don-valley-daily", "business", "Hamilton steel mill to reopen a furnace, recalling 350 workers",
     "A Hamilton steel mill will restart a furnace idled since spring, bringing back 350 workers before the new year, the company and its union said Monday.\n\n"
     "Demand from auto plants around Windsor and Oshawa has picked up, the company said. Hamilton's mayor called it \"the best news the east end has had all year.\""),
    # Places outside the US and Canada
    ("el-faro-de-la-bahia", "lifestyle", "Miamenses viajan a Ciudad de México para el Día de Muertos y regresan con ideas",
     "Decenas de familias de Miami viajaron este mes a Ciudad de México para las celebraciones de Día de Muertos, y algunos comercios de la Pequeña Habana ya preparan altares y talleres para el próximo año.\n\n"
     "\"Queremos que nuestros hijos conozcan la tradición\", dijo Consuelo Barragán, que vende papel picado en la calle Ocho."),
    ("echo-de-la-capitale", "politics", "Une délégation de Québec à Paris pour parler de la langue française",
     "Une délégation de l'Assemblée nationale s'est rendue à Paris cette semaine pour une rencontre sur l'avenir du français dans le numérique.\n\n"
     "Les élus québécois veulent convaincre les plateformes de diffusion de mettre en valeur les contenus en français. Une entente de principe pourrait être signée au printemps."),
    # Places named with state or province
    ("front-range-gazette", "sports", "Colorado Springs hosts the state high school cross-country finals",
     "More than 1,200 runners from across Colorado raced in the state cross-country finals in Colorado Springs on Saturday, with a Denver school, Sloan Park High, winning the girls' title.\n\n"
     "Junior Ayla Brightwater finished the 5-kilometre course in 18 minutes 2 seconds. Teams from Boulder and Fort Collins took the top spots in the boys' race."),
    ("peachtree-crier", "food", "A Savannah, Georgia, shrimp shack opens its first Atlanta location",
     "A family-run shrimp shack from Savannah, Georgia, is opening its first Atlanta location in the Old Fourth Ward on Friday.\n\n"
     "The menu keeps the fried shrimp baskets and the low-country boil on Sundays. Owner Beatrice Fennimore said she drives the sauce up from the coast every week."),
    ("red-river-courant", "local", "Winnipeg and Brandon, Man., share a new bus link to the airport",
     "A daily bus between Brandon, Manitoba, and Winnipeg's airport starts next week, giving westman travellers a way to catch early flights without driving.\n\n"
     "The service will stop in Portage la Prairie and run twice a day in each direction."),
    ("heraut-outaouais", "local", "Un nouveau pont cyclable entre Gatineau et Ottawa, Ont., à l'étude",
     "La Commission de la capitale nationale étudie la construction d'une passerelle cyclable entre le secteur de Hull, à Gatineau, et le centre-ville d'Ottawa, en Ontario.\n\n"
     "Les premiers plans seront présentés aux citoyens en janvier. La passerelle permettrait d'éviter le pont Portage, très achalandé aux heures de pointe."),
    ("centinela-del-alamo", "local", "San Antonio y Austin estudian un tren de pasajeros por la I-35",
     "Autoridades de San Antonio y Austin, Texas, presentaron el jueves un estudio para un tren de pasajeros que recorrería el corredor de la carretera I-35 en poco más de una hora.\n\n"
     "El proyecto, que aún no tiene financiamiento, incluiría estaciones en San Marcos y New Braunfels."),
    ("phare-acadien", "local", "Moncton et Dieppe lancent un service d'autobus de nuit",
     "Les villes de Moncton et de Dieppe, au Nouveau-Brunswick, lanceront en décembre un service d'autobus de nuit les vendredis et samedis.\n\n"
     "Les autobus circuleront jusqu'à 3 h du matin entre le centre-ville de Moncton et le quartier Champlain."),
    # Items that name no place at all
    ("peachtree-crier", "food", "Five soups for a cold week, ranked by how little they cost",
     "Soup season is here. We cooked five pots this week and worked out the cost per bowl, from a 70-cent lentil soup to a $3 seafood chowder.\n\n"
     "The winner was a black bean soup with cumin and lime that cost $1.10 a bowl and got better on day two. Recipes for all five are below, with notes on what to swap when the store is out of something."),
    ("saguaro-sentinel", "health", "How much sleep do teenagers really need? What the research says",
     "Most teenagers need between eight and ten hours of sleep a night, but fewer than one in four get it on school nights, according to a review of recent studies.\n\n"
     "Pediatricians suggest moving phones out of bedrooms and keeping weekend wake-up times within two hours of weekday ones. Caffeine after lunch was linked to shorter sleep in several studies."),
    ("capitol-ledger", "opinion", "Opinion: Stop scheduling public hearings at 2 p.m. on a Tuesday",
     "If you want to hear from the public, hold the hearing when the public can come. Too many boards still meet in the middle of a workday and then say nobody showed up.\n\n"
     "Evening hearings, childcare in the room and a way to testify by phone would cost little. The people who cannot leave work at 2 p.m. are the ones most affected by these decisions."),
    ("sentinelle-estrie", "opinion", "Chronique : le retour de la lettre manuscrite",
     "J'ai reçu la semaine dernière une lettre écrite à la main, avec un vrai timbre. Je l'ai relue trois fois.\n\n"
     "On dit que plus personne n'écrit de lettres, mais les papeteries vendent de nouveau du papier à lettres et des enveloppes colorées. Et si, cet hiver, on prenait le temps d'écrire à quelqu'un ?"),
    ("cronica-del-bayou", "opinion", "Opinión: el valor de aprender dos idiomas desde pequeños",
     "Hablar dos idiomas no es solo una ventaja para conseguir trabajo. Es una forma de mantener el vínculo con los abuelos y con la historia de cada familia.\n\n"
     "Los programas bilingües merecen más apoyo y más maestros. Cada niño que pierde el español de su casa pierde también una parte de sí mismo."),
]
