# -*- coding: utf-8 -*-
"""Demo corpus: developing stories, so the demo has realtime trends (issue 20, D303).

A trend is a phrase carried by at least 2 distinct stories begun in the last 6 hours, from
at least 3 publishers, well above its own 3-day baseline (D300). The events of
stories_events.py are each one story told by several outlets (one cluster), spread over
the week, so none of them trends. Here one fictional storm, Ardith, is told as separate
stories (different angles, different cities) by several publishers in each language and
country, all within the hours before the base date, so the real trends engine finds it.

Each entry: (publisher key, category, hours before the base date, title, text). Paragraphs
are separated by blank lines. Everything here is invented: no real storm, outlet or person.
"""

DEVELOPING = [
    {"id": "D01", "about": "Winter Storm Ardith across the northern United States", "cov": [
        ("capitol-ledger", "politics", 1.2, "Winter Storm Ardith shuts federal offices in Washington for Friday",
         "Federal offices in the Washington area will close on Friday as Winter Storm Ardith pushes heavy snow up the East Coast, the Office of Personnel Management said late Thursday.\n\n"
         "Emergency and telework staff are expected to keep working. Metro said trains would run on a reduced schedule and that above-ground stations may close if more than eight inches fall. The region has not had a storm this large this early in the season in more than a decade."),
        ("harborlight-herald", "education", 2.4, "Boston closes every public school as Winter Storm Ardith nears",
         "Boston Public Schools will be closed on Friday, the superintendent announced, as forecasters predicted 12 to 18 inches of snow from Winter Storm Ardith across eastern Massachusetts.\n\n"
         "A parking ban on main roads begins at 10 p.m. Thursday. Parents at a Dorchester elementary school said the early notice helped. \"We can plan for one day,\" said Keisha Almeida, \"it's the third day that gets hard.\""),
        ("lakefront-dispatch", "business", 3.1, "Hundreds of flights canceled at O'Hare ahead of Winter Storm Ardith",
         "Airlines canceled more than 600 flights at O'Hare and Midway on Thursday as Winter Storm Ardith moved out of the Plains with blowing snow and wind gusts near 45 mph.\n\n"
         "The city's aviation department said de-icing crews would work through the night. Travelers were told to check with their airline before leaving home; several carriers waived change fees for trips through Sunday."),
        ("front-range-gazette", "weather", 4.6, "Winter Storm Ardith leaves Denver with a foot of snow and closed highways",
         "Winter Storm Ardith dropped close to a foot of snow on Denver overnight and closed stretches of Interstate 70 in the mountains, where drifts stranded dozens of trucks near the Eisenhower Tunnel.\n\n"
         "Plows cleared main streets by morning, but side roads stayed packed with ice. The National Weather Service office in Boulder expected the storm to reach the Great Lakes by Thursday evening."),
    ]},
    {"id": "D02", "about": "Storm Ardith reaches Ontario and the Maritimes", "cov": [
        ("rideau-record", "local", 1.6, "Storm Ardith brings Ottawa its first big snowfall of the season",
         "Ottawa woke up to 25 centimetres of snow on Friday as Storm Ardith crossed eastern Ontario, and the city declared its first winter parking ban of the year.\n\n"
         "OC Transpo warned of delays on every route. The city's roads manager said the full fleet of plows was out and that residential streets would be cleared within 16 hours of the snow ending."),
        ("don-valley-daily", "local", 2.9, "Toronto braces for freezing rain as Storm Ardith moves east",
         "Toronto could see up to 10 millimetres of freezing rain on Friday as Storm Ardith tracks along Lake Ontario, Environment Canada said, raising the risk of power cuts across the city.\n\n"
         "Toronto Hydro put extra crews on standby. Schools remain open for now; the public board said it would decide by 6 a.m."),
        ("halifax-tideline", "weather", 4.2, "Storm Ardith: Nova Scotia prepares for high winds and coastal flooding",
         "Nova Scotia's emergency office asked coastal residents to secure boats and patio furniture as Storm Ardith is expected to bring gusts of 90 km/h and storm surge to the Atlantic shore on Saturday.\n\n"
         "Marine Atlantic cancelled Saturday's ferry crossings to Newfoundland. Halifax opened two warming centres for people without shelter."),
    ]},
    {"id": "D03", "about": "La tempête Ardith au Québec", "cov": [
        ("carillon-du-plateau", "local", 1.4, "La tempête Ardith paralyse les rues du Plateau-Mont-Royal",
         "La tempête Ardith a laissé près de 30 centimètres de neige sur Montréal vendredi, et la Ville a lancé sa première grande opération de déneigement de la saison.\n\n"
         "Les résidents du Plateau doivent déplacer leur voiture dès que les panneaux orange sont installés. La STM a ajouté des autobus sur les lignes les plus achalandées."),
        ("echo-de-la-capitale", "weather", 2.7, "Québec sous la neige : la tempête Ardith ferme les écoles",
         "Les centres de services scolaires de la région de Québec ont fermé toutes leurs écoles vendredi en raison de la tempête Ardith, qui pourrait laisser jusqu'à 40 centimètres de neige.\n\n"
         "Le ministère des Transports recommande d'éviter les déplacements sur l'autoroute 40. « On n'a pas vu ça si tôt depuis longtemps », a dit le déneigeur Gaétan Lapointe."),
        ("heraut-outaouais", "local", 3.8, "Pannes de courant à Gatineau après le passage de la tempête Ardith",
         "Plus de 20 000 clients d'Hydro-Québec étaient privés d'électricité vendredi matin à Gatineau, après que la tempête Ardith eut fait tomber des branches sur les lignes.\n\n"
         "La Ville a ouvert un centre d'hébergement à l'aréna Beaudry. Hydro-Québec prévoit rétablir le courant d'ici la fin de la journée dans la plupart des secteurs."),
        ("sentinelle-estrie", "local", 4.9, "Routes glacées en Estrie : la tempête Ardith cause plusieurs sorties de route",
         "La Sûreté du Québec a rapporté une quinzaine de sorties de route en Estrie depuis jeudi soir, alors que la tempête Ardith transforme la pluie en verglas sur les routes de la région.\n\n"
         "À Sherbrooke, les autobus scolaires ne circulent pas vendredi. Les automobilistes sont invités à réduire leur vitesse sur l'autoroute 10."),
    ]},
    {"id": "D04", "about": "La tormenta invernal Ardith en el suroeste", "cov": [
        ("paso-norte-noticias", "weather", 1.8, "La tormenta invernal Ardith cubre de hielo los puentes de El Paso",
         "La tormenta invernal Ardith dejó hielo en los puentes y pasos elevados de El Paso el viernes por la mañana, y el Departamento de Transporte cerró dos tramos de la carretera interestatal 10.\n\n"
         "Las escuelas del distrito abrieron con dos horas de retraso. \"Salimos despacio, con cadenas y con paciencia\", dijo el camionero Efraín Loera en una gasolinera de la avenida Montana."),
        ("centinela-del-alamo", "local", 3.3, "San Antonio abre refugios contra el frío por la tormenta invernal Ardith",
         "La ciudad de San Antonio abrió cuatro refugios contra el frío el jueves por la noche, ante las temperaturas bajo cero que trae la tormenta invernal Ardith.\n\n"
         "CPS Energy pidió ahorrar electricidad entre las seis y las nueve de la mañana. Los refugios aceptan mascotas y ofrecen transporte gratuito desde las paradas principales de autobús."),
        ("la-voz-del-valle", "weather", 4.4, "Nieve en las montañas de Los Ángeles: la tormenta invernal Ardith cierra carreteras",
         "La tormenta invernal Ardith trajo nieve a las montañas de San Gabriel y obligó a cerrar la carretera 2 y el paso Tejón durante varias horas el jueves.\n\n"
         "En la ciudad, la lluvia provocó deslaves menores en las colinas. Las autoridades pidieron a los conductores no subir a la nieve este fin de semana."),
    ]},
]
